import SophonCore

/// What a reply answered, as every caller reads it: the value (the result a `run` or
/// `batch results` line carries), the text, the function calls, the media, and what was
/// changed to read it.
public struct GeminiAnswer: Sendable {
    /// The answer as a JSON value: the schema's value (chosen, repaired and coerced) for a
    /// structured request; `{"functionCalls": [...]}` for an answer that asks for calls; the
    /// parsed JSON of a request that asked for `application/json` (its text when it is not
    /// JSON); else the text as a string.
    public var value: JSONValue
    /// The answer text (thought parts excluded).
    public var text: String
    /// The function calls of the first candidate, in order.
    public var functionCalls: [FunctionCall]
    /// The inline media of the first candidate (generated images, audio).
    public var media: [Blob]
    /// What lenient reading changed (`$.year: string "2016" read as number 2016`); empty when
    /// nothing.
    public var coercions: [String]
    /// The reply read.
    public var response: GenerateContentResponse
}

/// The one reader of a model's answer (docs/library.md): checks the reply, then extracts,
/// repairs, coerces and validates its JSON against the schema, or collects its function calls,
/// or keeps its text. A `run` line and a `batch results` line of the same reply are read here.
public struct GeminiAnswerReader: Sendable {
    /// The answer schema of a structured request; `nil` for none.
    public var schema: GeminiSchema?
    /// Whether the request asked for JSON (`responseMimeType` `application/json`) without a
    /// schema to read it by.
    public var wantsJSON: Bool

    /// Creates a reader for answers to requests with `schema` (or, without one, that asked for
    /// JSON when `wantsJSON`).
    public init(schema: GeminiSchema? = nil, wantsJSON: Bool = false) {
        self.schema = schema
        self.wantsJSON = wantsJSON
    }

    /// Creates the reader for answers to `request`, sent with `schema` as its response schema.
    public init(request: GenerateContentRequest, schema: GeminiSchema?) {
        self.init(
            schema: schema, wantsJSON: request.generationConfig?.responseMimeType == "application/json")
    }

    /// Reads `response`.
    /// - Throws: what a live call throws for the same reply: ``GeminiError/promptBlocked(reason:message:)``,
    ///   ``GeminiError/contentBlocked(reason:partialText:)``, ``GeminiError/emptyResponse`` and the
    ///   other checks of a complete reply; with a schema,
    ///   ``GeminiError/truncated(partialText:partialValue:)`` when the JSON was cut at
    ///   `MAX_TOKENS` and ``GeminiError/decodingFailed(reason:excerpt:)`` when the reply holds no
    ///   JSON or no value matches the schema (its violations as the reason).
    public func read(_ response: GenerateContentResponse) throws -> GeminiAnswer {
        try ReplyCheck.check(response)
        let text = response.text
        let parts = response.candidates?.first?.content?.parts ?? []
        let calls = parts.compactMap(\.functionCall)
        var answer = GeminiAnswer(
            value: .string(text), text: text, functionCalls: calls, media: parts.compactMap(\.inlineData),
            coercions: [], response: response)
        if let schema {
            let choice = try StructuredReplyDecoder.choose(from: response, schema: schema, allowPartial: true)
            guard choice.violations.isEmpty else {
                throw GeminiError.decodingFailed(
                    reason: choice.violations.map(\.description).joined(separator: "; "),
                    excerpt: StructuredReplyDecoder.excerpt(text))
            }
            answer.value = choice.value
            answer.coercions = choice.notes
        } else if !calls.isEmpty {
            answer.value = Self.functionCallsValue(calls)
        } else if wantsJSON, let value = try? JSONValue(parsing: text) {
            answer.value = value
        }
        return answer
    }

    /// Reads one answered request of a Batch job: its per-item error as the typed error a live
    /// call gets for that status (``GeminiStatusClassifier``), no response as
    /// ``GeminiError/emptyResponse``, else as ``read(_:)``.
    public func read(_ item: GeminiBatchItem) -> Result<GeminiAnswer, GeminiError> {
        if let error = item.error {
            return .failure(GeminiStatusClassifier.classify(itemError: error))
        }
        guard let response = item.response else { return .failure(.emptyResponse) }
        do {
            return .success(try read(response))
        } catch let error as GeminiError {
            return .failure(error)
        } catch {
            return .failure(.emptyResponse)
        }
    }

    /// `{"functionCalls": [{"id"?, "name", "args"}, ...]}`: the value of an answer that asks for
    /// function calls (docs/running-many-prompts.md).
    public static func functionCallsValue(_ calls: [FunctionCall]) -> JSONValue {
        .object([
            JSONMember(
                "functionCalls",
                .array(
                    calls.map { call in
                        var members: [JSONMember] = []
                        if let id = call.id { members.append(JSONMember("id", .string(id))) }
                        members.append(JSONMember("name", .string(call.name)))
                        members.append(JSONMember("args", call.args ?? .object([])))
                        return .object(members)
                    }))
        ])
    }
}
