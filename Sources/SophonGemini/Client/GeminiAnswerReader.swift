import Foundation
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
    /// The coercions as records (path, before, after), in the order of ``coercions``.
    public var coercionDetails: [GeminiCoercion] = []
    /// What the extractor changed in the reply text to find the value (fence, prose, trailing
    /// comma, truncation ...); empty for an answer without a schema.
    public var repairs: [JSONRepair] = []
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
            schema: schema, wantsJSON: request.asksForJSON)
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
            answer.coercionDetails = choice.details
            answer.repairs = choice.repairs
        } else if !calls.isEmpty {
            answer.value = Self.functionCallsValue(calls)
        } else if wantsJSON,
            let choice = try? StructuredReplyDecoder.choose(from: response, schema: nil, allowPartial: true)
        {
            // JSON mode without a schema: the JSON the reply holds, found and repaired as a
            // structured reply's is (a fence, a trailing comma); text with none stays text.
            answer.value = choice.value
            answer.repairs = choice.repairs
        }
        return answer
    }

    /// Reads one answered request of a Batch job: its per-item error as the typed error a live
    /// call gets for that status (`GeminiStatusClassifier`), no response as
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

/// Checks a complete reply before it is used (never retried: the same prompt gives the same
/// outcome).
enum ReplyCheck {
    /// - Throws: ``GeminiError/promptBlocked(reason:message:)`` for a blocked prompt,
    ///   ``GeminiError/contentBlocked(reason:partialText:)`` for a SAFETY/RECITATION/... stop,
    ///   ``GeminiError/truncated(partialText:partialValue:)`` for MAX_TOKENS with no answer text,
    ///   ``GeminiError/stoppedWithoutContent(reason:finishMessage:)`` for no usable content
    ///   and a finish reason other than STOP/MAX_TOKENS,
    ///   ``GeminiError/emptyResponse`` for no candidates, no parts or signature-only parts.
    static func check(_ response: GenerateContentResponse) throws {
        guard let candidate = response.candidates?.first else {
            if let feedback = response.promptFeedback, feedback.blockReason != nil {
                throw GeminiError.promptBlocked(
                    reason: feedback.blockReason, message: feedback.blockReasonMessage)
            }
            throw GeminiError.emptyResponse
        }
        let text = candidate.content?.answerText ?? ""
        if let reason = candidate.finishReason, reason.isToolFailure {
            throw GeminiError.toolCallFailed(reason: reason, finishMessage: candidate.finishMessage)
        }
        if let reason = candidate.finishReason, reason.isBlocked {
            throw GeminiError.contentBlocked(reason: reason, partialText: text)
        }
        let parts = candidate.content?.parts ?? []
        let useful = parts.contains { part in
            part.thought != true && !part.isSignatureOnly && (!(part.text ?? "").isEmpty || part.text == nil)
        }
        guard useful else {
            if candidate.finishReason == .maxTokens {
                throw GeminiError.truncated(partialText: text, partialValue: nil)
            }
            if let reason = candidate.finishReason, reason != .stop {
                throw GeminiError.stoppedWithoutContent(
                    reason: reason, finishMessage: candidate.finishMessage)
            }
            throw GeminiError.emptyResponse
        }
    }
}

/// Turns a structured reply's text into a value: SophonCore's `LLMJSONExtractor` finds every
/// JSON value in the text (fences, prose, repairs), the schema picks the candidate that
/// validates (coercing by its types), and `LenientJSONDecoder` decodes it, reporting coercions.
enum StructuredReplyDecoder {
    /// Repairs that mean the text was cut short (a reply stopped at MAX_TOKENS).
    static let truncationRepairs: Set<JSONRepair.Kind> = [
        .closedString, .droppedIncompleteEscape, .closedBracket, .droppedIncompleteMember,
        .droppedIncompleteValue, .completedLiteral, .completedNumber,
    ]

    /// Decodes the first candidate's answer text as `T`.
    /// - Parameters:
    ///   - schema: the request's response schema, when there was one: it picks the candidate.
    ///   - allowPartial: attach the repaired partial value to a truncation error.
    /// - Returns: the value and the coercions made (schema coercions, then decoder coercions).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   MAX_TOKENS and its JSON was cut; ``GeminiError/decodingFailed(reason:excerpt:)`` when
    ///   the text holds no JSON or the JSON does not fit `T`.
    /// The value a structured reply holds: the extractor's candidates, the one the schema
    /// selects (coerced to its types, with notes), or the first without a schema.
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` and its JSON had to be repaired for it (the repaired value attached when
    ///   `allowPartial`); ``GeminiError/decodingFailed(reason:excerpt:)`` when it holds no JSON.
    static func choose(
        from response: GenerateContentResponse, schema: GeminiSchema?, allowPartial: Bool
    ) throws -> StructuredChoice {
        let text = response.text
        let stoppedAtLimit = response.finishReason == .maxTokens
        let candidates: [ExtractedJSON]
        do {
            candidates = try LLMJSONExtractor().extract(from: text)
        } catch {
            if stoppedAtLimit { throw GeminiError.truncated(partialText: text, partialValue: nil) }
            throw GeminiError.decodingFailed(reason: error.description, excerpt: excerpt(text))
        }
        var chosen = candidates[0]
        let values = candidates.map(\.value)  // Each `value` parses the candidate's text: once.
        var choice = StructuredChoice(
            value: values[0], notes: [], violations: [], stoppedAtLimit: stoppedAtLimit)
        if let schema, let selection = schema.selectCandidate(from: values) {
            chosen = candidates[selection.index]
            choice.value = selection.value
            choice.notes = selection.coercions.map(\.description)
            choice.details = selection.coercionDetails
            choice.violations = selection.violations
        }
        choice.repairs = chosen.repairs
        let cut = chosen.repairs.contains { truncationRepairs.contains($0.kind) }
        if stoppedAtLimit && cut {
            throw GeminiError.truncated(partialText: text, partialValue: allowPartial ? choice.value : nil)
        }
        return choice
    }

    static func decode<T: Decodable>(
        _ type: T.Type, from response: GenerateContentResponse, schema: GeminiSchema?, allowPartial: Bool
    ) throws -> (value: T, coercions: [String], details: [GeminiCoercion], repairs: [JSONRepair]) {
        let choice = try choose(from: response, schema: schema, allowPartial: allowPartial)
        do {
            let decoded = try LenientJSONDecoder().decode(T.self, from: choice.value)
            return (
                decoded.value, choice.notes + decoded.coercions.map(\.description),
                choice.details + decoded.coercions.map(GeminiCoercion.init), choice.repairs
            )
        } catch {
            let text = response.text
            if choice.stoppedAtLimit {
                throw GeminiError.truncated(
                    partialText: text, partialValue: allowPartial ? choice.value : nil)
            }
            let reason =
                choice.violations.isEmpty
                ? describe(error) : choice.violations.map(\.description).joined(separator: "; ")
            throw GeminiError.decodingFailed(reason: reason, excerpt: excerpt(text))
        }
    }

    static func excerpt(_ text: String) -> String {
        TextExcerpt.collapsed(text, limit: 120, separatedBy: \.isNewline)
    }

    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), got null"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// The JSON value chosen from a structured reply, before decoding into a type.
struct StructuredChoice: Sendable {
    /// The value (coerced to the schema's types when a schema chose it).
    var value: JSONValue
    /// The coercions applied: `$.year: string "2016" read as number 2016`.
    var notes: [String]
    /// How the value still fails the schema; empty when it validates.
    var violations: [GeminiSchemaIssue]
    /// Whether the reply stopped at `MAX_TOKENS`.
    var stoppedAtLimit: Bool
    /// The coercions as records.
    var details: [GeminiCoercion] = []
    /// What the extractor changed in the text to find the chosen value.
    var repairs: [JSONRepair] = []
}
