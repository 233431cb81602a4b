import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Generates text from a conversation.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - contents: the conversation, oldest first (contents without parts are dropped).
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction.
    ///   - generationConfig: optional sampling settings.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the answer text (thought parts excluded), with usage and retry count.
    /// - Throws: ``GeminiError`` (blocked prompt or answer, empty reply, HTTP and transport
    ///   errors after retries), or `CancellationError`.
    public func generateText(
        label: String, contents: [Content], model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<String> {
        let contents = contents.filter { !($0.parts ?? []).isEmpty }
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in
            GenerateContentRequest(
                contents: contents, systemInstruction: systemInstruction, generationConfig: generationConfig)
        }
        return GeminiResult(
            value: result.value.text, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: [])
    }

    /// Generates a value of `type` constrained by `schema` (`responseMimeType`
    /// `application/json`, `responseSchema`).
    /// - Parameters:
    ///   - type: the type to decode the JSON answer into.
    ///   - label: a short name for logs and events.
    ///   - prompt: the prompt text (sent after `parts`).
    ///   - parts: media or other parts sent before the prompt; none by default.
    ///   - schema: the answer schema.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction.
    ///   - generationConfig: extra settings; its MIME type and schema are replaced.
    ///   - retryPolicy: overrides the configured policy for this call.
    ///   - allowPartial: with a reply cut at MAX_TOKENS, attach the repaired partial value to
    ///     ``GeminiError/truncated(partialText:partialValue:)``.
    /// - Returns: the decoded value, with usage, retry count and decoding coercions.
    /// - Throws: ``GeminiError`` (as ``generateText(label:contents:model:systemInstruction:generationConfig:retryPolicy:)``,
    ///   plus `truncated` and `decodingFailed`), or `CancellationError`.
    public func generateStructured<T: Decodable & Sendable>(
        _ type: T.Type, label: String, prompt: String, parts: [Part] = [], schema: GeminiSchema,
        model: GeminiModel? = nil, systemInstruction: String? = nil,
        generationConfig: GenerationConfig? = nil,
        retryPolicy: GeminiRetryPolicy? = nil, allowPartial: Bool = false
    ) async throws -> GeminiResult<T> {
        let request = buildRequest(
            parts: parts, promptText: prompt, responseSchema: schema, systemInstruction: systemInstruction,
            generationConfig: generationConfig)
        return try await send(
            type, label: label, model: model, retryPolicy: retryPolicy, allowPartial: allowPartial
        ) { _ in
            request
        }
    }

    /// Builds a structured request: `parts` (media first), then the prompt text, with
    /// `application/json` and `responseSchema` set.
    public func buildRequest(
        parts: [Part], promptText: String, responseSchema: GeminiSchema?, systemInstruction: String? = nil,
        generationConfig: GenerationConfig? = nil
    ) -> GenerateContentRequest {
        GenerateContentRequest(
            contents: [Content(role: "user", parts: parts + [.text(promptText)])],
            systemInstruction: systemInstruction.map { Content(role: nil, parts: [.text($0)]) },
            generationConfig: generationConfig ?? GenerationConfig()
        ).answering(schema: responseSchema)
    }

    /// Sends the request `buildRequest` makes for each attempt and decodes the JSON answer as
    /// `type` (the original API's closure-based call for media-heavy flows).
    /// - Parameters:
    ///   - type: the type to decode the answer into.
    ///   - label: a short name for logs and events.
    ///   - model: the first model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    ///   - allowPartial: see ``generateStructured(_:label:prompt:parts:schema:model:systemInstruction:generationConfig:retryPolicy:allowPartial:)``.
    ///   - buildRequest: builds the body for a ``GeminiRequestVariant`` (model ID, smaller-media flag).
    /// - Throws: as ``generateStructured(_:label:prompt:parts:schema:model:systemInstruction:generationConfig:retryPolicy:allowPartial:)``,
    ///   or what `buildRequest` throws.
    public func send<T: Decodable & Sendable>(
        _ type: T.Type, label: String, model: GeminiModel? = nil, retryPolicy: GeminiRetryPolicy? = nil,
        allowPartial: Bool = false,
        buildRequest: @escaping @Sendable (GeminiRequestVariant) async throws -> GenerateContentRequest
    ) async throws -> GeminiResult<T> {
        let schema = LockedBox<GeminiSchema?>(nil)
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { variant in
            let request = try await buildRequest(variant)
            schema.set(request.generationConfig?.responseSchema)
            return request
        }
        do {
            let decoded = try StructuredReplyDecoder.decode(
                type, from: result.response, schema: schema.get(), allowPartial: allowPartial)
            return GeminiResult(
                value: decoded.value, response: result.response, modelID: result.modelID,
                retryCount: result.retryCount, usedFallback: result.usedFallback,
                coercions: decoded.coercions,
                coercionDetails: decoded.details, repairs: decoded.repairs)
        } catch let error as GeminiError {
            throw error.redacting((try? requireAPIKey()).map { [$0] } ?? [])
        }
    }

    /// Sends the request `buildRequest` makes for each attempt and returns the checked raw
    /// response (not empty, not blocked).
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func sendRequest(
        label: String, model: GeminiModel? = nil, retryPolicy: GeminiRetryPolicy? = nil,
        buildRequest: @escaping @Sendable (GeminiRequestVariant) async throws -> GenerateContentRequest
    ) async throws -> GeminiResult<GenerateContentResponse> {
        var call = GeminiAPICall<GenerateContentResponse>.unary(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .generateContent(model: $0) },
            body: { variant in
                try OrderedJSONEncoder().encodeData(
                    self.downscaled(
                        self.configuration.backend.request(try await buildRequest(variant)), for: variant))
            })
        call.check = { try ReplyCheck.check($0) }
        call.logsFailures = true
        call.asksForTier = true
        let (response, outcome) = try await perform(call, retryPolicy: retryPolicy)
        return GeminiResult(
            value: response, response: response, modelID: outcome.modelID, retryCount: outcome.retryCount,
            usedFallback: outcome.usedFallback, coercions: [])
    }

    /// Counts the tokens of `contents` on `model`.
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func countTokens(
        label: String = "countTokens", contents: [Content], model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> CountTokensResponse {
        let body = try OrderedJSONEncoder().encodeData(
            CountTokensRequest(contents: configuration.backend.contents(contents)))
        let call = GeminiAPICall<CountTokensResponse>.unary(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("countTokens", model: $0) }, body: { _ in body })
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Counts the tokens of everything `request` would send (contents, attachments, system
    /// instruction, tools, schema and other generation settings) on `model`, through
    /// countTokens' `{"generateContentRequest": {"model": "models/ID", ...}}` form
    /// (docs/library.md); `model` is filled in per attempt, so a fallback counts on the fallback.
    /// On Vertex AI, which has no `generateContentRequest` member, the contents, system
    /// instruction, tools and generation settings go at the body's root (docs/vertex.md).
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func countTokens(
        label: String = "countTokens", request: GenerateContentRequest, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> CountTokensResponse {
        let call = GeminiAPICall<CountTokensResponse>.unary(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("countTokens", model: $0) },
            body: { variant in
                try self.configuration.backend.countTokensBody(request, modelID: variant.modelID)
            })
        return try await perform(call, retryPolicy: retryPolicy).value
    }
}

extension GeminiAPIClient {
    /// Generates text from a whole request (`safetySettings` and every other field sent as
    /// given; contents without parts dropped, as the API refuses them).
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - request: the body of `models/{model}:generateContent`.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the answer text (thought parts excluded), with usage and retry count.
    /// - Throws: as ``generateText(label:contents:model:systemInstruction:generationConfig:retryPolicy:)``.
    public func generateText(
        label: String, request: GenerateContentRequest, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<String> {
        var body = request
        body.contents = request.contents.filter { !($0.parts ?? []).isEmpty }
        let sent = body
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in sent }
        return GeminiResult(
            value: result.value.text, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: [])
    }
}

extension GeminiAPIClient {
    /// Sends a structured request and returns the answer as a JSON value chosen and coerced by
    /// `schema`: the reply text goes through `LLMJSONExtractor` (SophonCore) (fences, prose, truncation
    /// repaired), then ``GeminiSchema/selectCandidate(from:coercing:)`` picks the first value
    /// that validates (after the usual coercions, listed in ``GeminiResult/coercions``). Without
    /// a schema (JSON mode, a prompt file's `output.format: json`), the reply's JSON as it parses,
    /// or its text when it is not JSON (``GeminiAnswerReader``).
    ///
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - request: the request; its `generationConfig` gets `responseMimeType`
    ///     `application/json` and, with a schema, `responseSchema` = `schema`.
    ///   - schema: the answer schema; `nil` for JSON of any shape.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the value, with usage, retry count, whether the fallback answered, and the
    ///   coercions applied (`$.year: string "2016" read as number 2016`).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` (with the repaired partial value when one was recoverable),
    ///   ``GeminiError/decodingFailed(reason:excerpt:)`` when the reply holds no JSON or no
    ///   value matches the schema (its violations as the reason), and everything
    ///   ``sendRequest(label:model:retryPolicy:buildRequest:)`` throws.
    public func generateJSON(
        label: String, request: GenerateContentRequest, schema: GeminiSchema?, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<JSONValue> {
        let sent = schema == nil ? request.answeringJSON() : request.answering(schema: schema)
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in sent }
        let answer = try GeminiAnswerReader(request: sent, schema: schema).read(result.response)
        return GeminiResult(
            value: answer.value, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: answer.coercions,
            coercionDetails: answer.coercionDetails, repairs: answer.repairs)
    }
}

extension GeminiAPIClient {
    /// The structured answer a reply holds, decoded exactly as
    /// ``generateJSON(label:request:schema:model:retryPolicy:)`` decodes its reply: for callers
    /// that sent the request themselves (the shell's tool loop sends `responseSchema` with
    /// `tools`, docs/commands.md "Tools").
    ///
    /// - Parameters:
    ///   - response: a reply to a request whose `generationConfig` had `responseSchema` = `schema`.
    ///   - schema: the answer schema.
    /// - Returns: the value chosen and coerced by `schema`, and the coercions applied
    ///   (`$.year: string "2016" read as number 2016`).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` with its JSON cut; ``GeminiError/decodingFailed(reason:excerpt:)`` when the
    ///   reply holds no JSON (a reply of only function calls has no text) or no value matches
    ///   the schema (its violations as the reason).
    public static func structuredValue(of response: GenerateContentResponse, schema: GeminiSchema) throws
        -> (value: JSONValue, coercions: [String])
    {
        let answer = try GeminiAnswerReader(schema: schema).read(response)
        return (answer.value, answer.coercions)
    }
}

extension GeminiAPIClient {
    /// Inline parts for encoded images (PNG, JPEG, WebP, GIF, HEIC; PDF and plain text are
    /// accepted too), in order, within the configuration's ``GeminiClientConfiguration/maxMediaParts``
    /// and ``GeminiClientConfiguration/maxInlineMediaBytes``: the original API's `encodeImages`, for a
    /// ``send(_:label:model:retryPolicy:allowPartial:buildRequest:)`` builder.
    ///
    /// The parts hold the original bytes on every attempt: after a transport failure the client
    /// re-encodes the image parts of the request itself when it has an
    /// ``GeminiClientConfiguration/imageDownscaler`` (docs/library.md, "Downscale on retry").
    /// - Parameters:
    ///   - images: the encoded image files.
    ///   - variant: the attempt being built.
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:server:)`` for more images than
    ///   allowed, ``GeminiError/mediaTooLarge(path:bytes:limit:)`` past the byte limit and
    ///   ``GeminiError/mediaUnreadable(path:reason:)`` for bytes of an unknown type (errors name
    ///   the images `item 1`, `item 2`, ...); `CancellationError` when the task is cancelled.
    public func encodeImages(_ images: [Data], variant: GeminiRequestVariant) async throws -> [Part] {
        try Task.checkCancellation()
        return try GeminiMedia.inlineParts(data: images, configuration: configuration)
    }

    /// The original API's request builder: the request of
    /// ``buildRequest(parts:promptText:responseSchema:systemInstruction:generationConfig:)``.
    ///
    /// `apiKey` and `modelID` are accepted so code written for the original API compiles unchanged; neither goes into
    /// the body: the client sends the key in the `x-goog-api-key` header and the model in the
    /// URL path of each attempt (``GeminiRequestVariant/modelID``).
    /// - Throws: ``GeminiError/invalidModelID(_:)`` when `modelID` is not a well-formed model
    ///   ID (``GeminiModel/isWellFormedID(_:)``, a leading `models/` allowed).
    public func buildRequest(
        parts: [Part], promptText: String, apiKey: String, modelID: String, responseSchema: GeminiSchema?
    ) throws -> GenerateContentRequest {
        _ = try Self.validatedModelID(modelID)
        return buildRequest(parts: parts, promptText: promptText, responseSchema: responseSchema)
    }
}
