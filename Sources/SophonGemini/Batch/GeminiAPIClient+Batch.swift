import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Creates a Batch job with inline requests (`POST models/M:batchGenerateContent`), each
    /// carrying its key in `metadata.key`. Create is not idempotent: only a 429 is retried (per
    /// the configured retry policy); a lost answer is not (docs/running-many-prompts.md: the
    /// caller journals the job first and looks it up by display name with
    /// ``listBatches(pageSize:pageToken:)``).
    /// - Throws: ``GeminiError`` (a 429 on create is `rateLimited`), or `CancellationError`.
    public func createBatch(
        displayName: String, model: GeminiModel?, requests: [(key: String, request: GenerateContentRequest)]
    ) async throws -> GeminiBatch {
        let body = try Self.batchBody(displayName: displayName, requests: requests)
        return GeminiBatch(operation: try await sendBatchCreate(body: body, model: model, as: JSONValue.self))
    }

    /// Creates a Batch job whose input is an uploaded JSONL file (`files/ID`, one
    /// `{"key": K, "request": {...}}` per line; upload it with the Files API). Only a 429 is
    /// retried, like ``createBatch(displayName:model:requests:)``.
    /// - Throws: ``GeminiError``, or `CancellationError`.
    public func createBatch(displayName: String, model: GeminiModel?, fileName: String) async throws
        -> GeminiBatch
    {
        let body = Data(
            (#"{"batch":{"displayName":"# + JSONValue.string(displayName).compactText
                + #","inputConfig":{"fileName":"# + JSONValue.string(fileName).compactText + "}}}").utf8)
        return GeminiBatch(operation: try await sendBatchCreate(body: body, model: model, as: JSONValue.self))
    }

    /// `POST models/M:batchGenerateContent` with `body`, its 200 answer decoded as `Reply`.
    /// Create is not idempotent: only a 429 (nothing was created) is retried, as the configured
    /// policy and ``RetryDecision`` decide; any other failure, a lost answer included, ends the
    /// call at once (no fallback on a 404).
    /// - Throws: ``GeminiError``, or `CancellationError`.
    func sendBatchCreate<Reply: Decodable & Sendable>(body: Data, model: GeminiModel?, as reply: Reply.Type)
        async throws -> Reply
    {
        var policy = configuration.retryPolicy
        policy.fallbackOn404 = false
        var call = GeminiAPICall<Reply>.unary(
            label: "batchCreate", method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("batchGenerateContent", model: $0) }, body: { _ in body })
        call.mayRetry = { error in
            if case .rateLimited = error { return true }
            return false
        }
        return try await perform(call, retryPolicy: policy).value
    }

    /// One line of a JSONL batch input file: `{"key":K,"request":{...}}` and a newline.
    public static func batchFileLine(key: String, request: GenerateContentRequest) throws -> Data {
        var line = Data(#"{"key":"#.utf8)
        line.append(contentsOf: JSONValue.string(key).compactText.utf8)
        line.append(contentsOf: #","request":"#.utf8)
        line.append(try OrderedJSONEncoder().encodeData(request))
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// The create body of ``createBatch(displayName:model:requests:)``, for its size: the inline
    /// limit is 20,000,000 bytes.
    public static func batchBody(
        displayName: String, requests: [(key: String, request: GenerateContentRequest)]
    ) throws -> Data {
        var text = #"{"batch":{"displayName":"#
        text += JSONValue.string(displayName).compactText
        text += #","inputConfig":{"requests":{"requests":["#
        let encoder = OrderedJSONEncoder()
        for (index, item) in requests.enumerated() {
            if index > 0 { text += "," }
            text += #"{"request":"#
            text += String(decoding: try encoder.encodeData(item.request), as: UTF8.self)
            text += #","metadata":{"key":"#
            text += JSONValue.string(item.key).compactText
            text += "}}"
        }
        text += "]}}}}"
        return Data(text.utf8)
    }

    /// `GET batches/ID`.
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func getBatch(_ name: String) async throws -> GeminiBatch {
        let endpoint = GeminiEndpoint(path: name)
        let call = GeminiAPICall<GeminiBatchOperation>.unary(
            label: "batchGet", method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil })
        return GeminiBatch(try await perform(call, retryPolicy: nil).value)
    }

    /// One page of `GET batches`.
    /// - Returns: the jobs and the next page's token (`nil` on the last page).
    public func listBatches(pageSize: Int? = nil, pageToken: String? = nil) async throws
        -> (batches: [GeminiBatch], nextPageToken: String?)
    {
        var query: [(String, String)] = []
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        if let pageToken, !pageToken.isEmpty { query.append(("pageToken", pageToken)) }
        let page = try await batchCall("GET", path: "batches", query: query, label: "batchList")
        var batches: [GeminiBatch] = []
        if case .array(let operations)? = page["operations"] { batches = operations.map(GeminiBatch.init) }
        let token = page["nextPageToken"]?.stringValue
        return (batches, token?.isEmpty == false ? token : nil)
    }

    /// Every job, page by page (at most `maxPages` pages).
    public func listAllBatches(maxPages: Int = 100) async throws -> [GeminiBatch] {
        var all: [GeminiBatch] = []
        var token: String?
        for _ in 0..<maxPages {
            let page = try await listBatches(pageSize: 100, pageToken: token)
            all += page.batches
            guard let next = page.nextPageToken else { break }
            token = next
        }
        return all
    }

    /// `POST batches/ID:cancel`.
    public func cancelBatch(_ name: String) async throws {
        _ = try await batchCall("POST", path: name + ":cancel", body: Data("{}".utf8), label: "batchCancel")
    }

    /// `DELETE batches/ID`.
    public func deleteBatch(_ name: String) async throws {
        _ = try await batchCall("DELETE", path: name, label: "batchDelete")
    }

    private func batchCall(
        _ method: String, path: String, query: [(String, String)] = [], body: Data? = nil, label: String
    ) async throws -> JSONValue {
        let endpoint = GeminiEndpoint(path: path, query: query)
        let call = GeminiAPICall<JSONValue>.unary(
            label: label, method: method, namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in body })
        return try await perform(call, retryPolicy: nil).value
    }
}
