import Foundation
import SophonCore

/// The Gemini REST client: structured and text generation, streaming, token counting and the
/// models list, with retries, model fallback and typed errors.
///
/// `Sendable` and stateless apart from its configuration: call it from many tasks at once.
/// The API key (from ``GeminiClientConfiguration/apiKeyProvider``) travels only in the
/// `x-goog-api-key` header, and is masked in every error description.
///
/// ```swift
/// struct Extraction: Decodable, Sendable { let title: String }
/// let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { myKey }))
/// let result = try await client.generateStructured(
///     Extraction.self, label: "extract", prompt: "Title of: ...",
///     schema: .object(properties: ["title": .string()], required: ["title"]),
///     retryPolicy: .minimal)
/// print(result.value.title, result.usage?.totalTokenCount ?? 0, result.retryCount)
/// ```
public final class GeminiAPIClient: Sendable {
    /// The configuration every call uses (per-call parameters override parts of it).
    public let configuration: GeminiClientConfiguration
    /// The transport moving the bytes.
    public let transport: any GeminiTransport
    /// Ends streams that outlast the whole-call limit (one timer for all of them).
    let streamDeadlines = DeadlineWatch()
    /// Files this client uploaded, by content hash (``uploadFileOnce(data:mimeType:displayName:retryPolicy:progress:)``).
    let uploadMemo: UploadMemo

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: models, endpoint, key source, policy and hooks.
    ///   - transport: the HTTP layer; the default wraps URLSession (created lazily).
    public init(
        configuration: GeminiClientConfiguration = .init(),
        transport: any GeminiTransport = URLSessionTransport()
    ) {
        self.configuration = configuration
        self.transport = transport
        self.uploadMemo = UploadMemo()
    }

    /// Creates a client that shares `other`'s memory of uploaded files, so a client made again
    /// with a changed configuration does not upload the same bytes again.
    /// - Parameters:
    ///   - configuration: models, endpoint, key source, policy and hooks.
    ///   - transport: the HTTP layer.
    ///   - other: the client whose uploads this one remembers (and adds to).
    public init(
        configuration: GeminiClientConfiguration, transport: any GeminiTransport,
        sharingUploadsWith other: GeminiAPIClient
    ) {
        self.configuration = configuration
        self.transport = transport
        self.uploadMemo = other.uploadMemo
    }

    /// Whether the key provider currently supplies a key.
    public var hasAPIKey: Bool { (try? requireAPIKey()) != nil }

    /// The key for display (`••••cD3f`), or `nil` when there is none.
    public var maskedAPIKey: String? { (try? requireAPIKey()).map(SecretMask.mask) }

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
                retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: decoded.coercions
            )
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
                    self.downscaled(try await buildRequest(variant), for: variant))
            })
        call.check = { try ReplyCheck.check($0) }
        call.logsFailures = true
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
        let body = try OrderedJSONEncoder().encodeData(CountTokensRequest(contents: contents))
        let call = GeminiAPICall<CountTokensResponse>.unary(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("countTokens", model: $0) }, body: { _ in body })
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Counts the tokens of everything `request` would send (contents, attachments, system
    /// instruction, tools, schema and other generation settings) on `model`, through
    /// countTokens' `{"generateContentRequest": {"model": "models/ID", ...}}` form
    /// (docs/library.md); `model` is filled in per attempt, so a fallback counts on the fallback.
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func countTokens(
        label: String = "countTokens", request: GenerateContentRequest, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> CountTokensResponse {
        let call = GeminiAPICall<CountTokensResponse>.unary(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("countTokens", model: $0) },
            body: { variant in
                var whole = request
                whole.model = "models/" + variant.modelID
                return try OrderedJSONEncoder().encodeData(CountTokensRequest(generateContentRequest: whole))
            })
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Lists one page of models (`GET /v1beta/models`).
    /// - Parameters:
    ///   - pageSize: models per page (server default 50, max 1000); `nil` leaves it to the server.
    ///   - pageToken: the previous page's `nextPageToken`.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func listModels(
        pageSize: Int? = nil, pageToken: String? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> ListModelsResponse {
        let endpoint = GeminiEndpoint.models(pageSize: pageSize, pageToken: pageToken)
        let call = GeminiAPICall<ListModelsResponse>.unary(
            label: "listModels", method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil })
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Lists every model, following `nextPageToken` (at most `maxPages` pages); a listing that
    /// stops early (a repeated page token, the page limit) is logged as a warning.
    /// - Throws: as ``listModels(pageSize:pageToken:retryPolicy:)``.
    public func listAllModels(pageSize: Int? = nil, maxPages: Int = 100) async throws -> [GeminiModelInfo] {
        let listing = try await listModelPages(pageSize: pageSize, maxPages: maxPages)
        if let warning = listing.warning { log(.warning, "listModels: \(warning)") }
        return listing.items
    }

    /// Lists every model through a ``GeminiPager``: the models, the pages read and why the
    /// listing stopped (a page token the server sent twice ends it, see ``GeminiPagedList/Stop``).
    /// - Throws: as ``listModels(pageSize:pageToken:retryPolicy:)``.
    public func listModelPages(pageSize: Int? = nil, maxPages: Int = 100) async throws
        -> GeminiPagedList<GeminiModelInfo>
    {
        try await GeminiPager(maxPages: maxPages).collect { token in
            let page = try await listModels(pageSize: pageSize, pageToken: token)
            return (page.models ?? [], page.nextPageToken)
        }
    }
}
