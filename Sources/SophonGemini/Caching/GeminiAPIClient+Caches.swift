import Foundation
import SophonCore

/// Explicit context caches (`cachedContents`, docs/commands.md, "cache"): create,
/// get, list, extend and delete, each through the client's one call path (key or token,
/// deadline, retries, masking, tapes). A generate request names a cache in
/// ``GenerateContentRequest/cachedContent`` and then must not carry a system instruction,
/// tools or a tool configuration (``GenerateContentRequest/usingCache(_:)``).
extension GeminiAPIClient {
    /// `POST cachedContents`: makes a cache of `request` for `model` (the selected model when
    /// `nil`). Create is not idempotent: only a 429 (nothing was made) is retried.
    /// - Returns: the cache as the server made it (its name, expiry and token count).
    /// - Throws: ``GeminiError`` (a 400 for content below the model's minimum size, whose
    ///   message the server words), or `CancellationError`.
    public func createCachedContent(
        _ request: GeminiCacheRequest, model: GeminiModel? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiCachedContent {
        let backend = configuration.backend
        var policy = retryPolicy ?? configuration.retryPolicy
        policy.fallbackOn404 = false
        let modelID = try callModelID(model)
        var request = request
        request.contents = backend.contents(request.contents)
        let body = try request.body(model: backend.modelResource(modelID))
        var call = GeminiAPICall<GeminiCachedContent>.unary(
            label: "cacheCreate", method: "POST", namesModel: false, model: nil,
            endpoint: { _ in GeminiEndpoint(path: "cachedContents") }, body: { _ in body })
        call.mayRetry = { error in
            if case .rateLimited = error { return true }
            return false
        }
        return try await perform(call, retryPolicy: policy).value
    }

    /// `GET cachedContents/ID` (`name` with or without `cachedContents/`).
    /// - Throws: ``GeminiError`` (a 403 or 404 when it expired or never existed).
    public func getCachedContent(_ name: String, retryPolicy: GeminiRetryPolicy? = nil) async throws
        -> GeminiCachedContent
    {
        try await cacheCall("cacheGet", "GET", .cachedContent(name), policy: retryPolicy)
    }

    /// One page of `GET cachedContents`.
    /// - Throws: ``GeminiError``.
    public func listCachedContents(
        pageSize: Int? = nil, pageToken: String? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> ListCachedContentsResponse {
        var endpoint = GeminiEndpoint.models(pageSize: pageSize, pageToken: pageToken)
        endpoint.path = "cachedContents"
        return try await cacheCall("cacheList", "GET", endpoint, policy: retryPolicy)
    }

    /// Every cache, page by page through ``GeminiPager``.
    /// - Throws: as ``listCachedContents(pageSize:pageToken:retryPolicy:)``.
    public func listAllCachedContents(maxPages: Int = 100) async throws -> [GeminiCachedContent] {
        try await GeminiPager(maxPages: maxPages).collect { token in
            let page = try await listCachedContents(pageSize: 100, pageToken: token)
            return (page.cachedContents ?? [], page.nextPageToken)
        }.items
    }

    /// `PATCH cachedContents/ID?updateMask=ttl` with `{"ttl": "Ns"}`: the cache now expires
    /// `ttl` from now (only the expiry of a cache can change).
    /// - Returns: the cache with its new `expireTime`.
    /// - Throws: ``GeminiError``.
    public func extendCachedContent(
        _ name: String, ttl: Duration, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiCachedContent {
        var endpoint = GeminiEndpoint.cachedContent(name)
        endpoint.query = [("updateMask", "ttl")]
        let body = Data(#"{"ttl":"\#(GeminiCacheRequest.durationText(ttl))"}"#.utf8)
        return try await cacheCall("cacheExtend", "PATCH", endpoint, body: body, policy: retryPolicy)
    }

    /// `DELETE cachedContents/ID`.
    /// - Throws: ``GeminiError``.
    public func deleteCachedContent(_ name: String, retryPolicy: GeminiRetryPolicy? = nil) async throws {
        let _: JSONValue = try await cacheCall(
            "cacheDelete", "DELETE", .cachedContent(name), policy: retryPolicy)
    }

    private func cacheCall<Reply: Decodable & Sendable>(
        _ label: String, _ method: String, _ endpoint: GeminiEndpoint, body: Data? = nil,
        policy: GeminiRetryPolicy?
    ) async throws -> Reply {
        let call = GeminiAPICall<Reply>(
            label: label, method: method, namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in body }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                if http.status == 403, let status = GoogleRPCErrorBody.parse(data) {
                    // "CachedContent not found (or permission denied)": the cache, not the key.
                    throw GeminiError.http(
                        status: 403, apiStatus: status.status, message: status.message ?? "", details: [])
                }
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data, modelID: nil)
            }
            return try GeminiAPIClient.decodeBody(Reply.self, from: data.isEmpty ? Data("{}".utf8) : data)
        }
        return try await perform(call, retryPolicy: policy).value
    }
}

extension GenerateContentRequest {
    /// This request answered from the cache `name` (`cachedContents/ID`): `cachedContent` set,
    /// and the system instruction, tools and tool configuration left out, as the API requires
    /// (a request with both is a 400); unchanged when `name` is `nil`.
    public func usingCache(_ name: String?) -> GenerateContentRequest {
        guard let name else { return self }
        var request = self
        request.cachedContent = name
        request.systemInstruction = nil
        request.tools = nil
        request.toolConfig = nil
        return request
    }
}

extension GeminiEndpoint {
    /// `cachedContents/ID` (`name` with or without the prefix; a Vertex AI `projects/...` name as is).
    static func cachedContent(_ name: String) -> GeminiEndpoint {
        GeminiEndpoint(
            path: name.hasPrefix("cachedContents/") || name.hasPrefix("projects/")
                ? name : "cachedContents/\(name)")
    }
}
