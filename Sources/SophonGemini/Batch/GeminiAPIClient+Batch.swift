import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// policy and `RetryDecision` decide; any other failure, a lost answer included, ends the
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

    /// One page of `GET batches`: each job's name, display name, model, state, counts, create
    /// time and error, decoded straight into typed values. The answers a finished job carries
    /// inline are skipped, never decoded (a listed job's ``GeminiBatch/inlinedResponses`` and
    /// ``GeminiBatch/responsesFile`` are `nil`; ``getBatch(_:)`` reads them).
    /// - Returns: the jobs and the next page's token (`nil` on the last page).
    public func listBatches(pageSize: Int? = nil, pageToken: String? = nil) async throws
        -> (batches: [GeminiBatch], nextPageToken: String?)
    {
        var query: [(String, String)] = []
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        if let pageToken, !pageToken.isEmpty { query.append(("pageToken", pageToken)) }
        let endpoint = GeminiEndpoint(path: "batches", query: query)
        let call = GeminiAPICall<GeminiBatchOperation.ListPage>.unary(
            label: "batchList", method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil })
        let page = try await perform(call, retryPolicy: nil).value
        let batches = (page.operations ?? []).map { GeminiBatch($0.operation) }
        let token = page.nextPageToken
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

/// Batch jobs too large to hold whole: a create body built by ``GeminiBatchInput``, and answers
/// read one at a time from the Operation or the results file (docs/running-many-prompts.md,
/// "Memory").
extension GeminiAPIClient {
    /// Sends a create body built by ``GeminiBatchInput`` (inline requests). Sent once, never
    /// retried, like ``createBatch(displayName:model:requests:)``.
    /// - Throws: ``GeminiError`` (a 429 on create is `rateLimited`), or `CancellationError`.
    public func createBatch(displayName: String, model: GeminiModel?, body: Data) async throws -> GeminiBatch
    {
        // Decoded straight into typed values: a create answer is small, but a server that
        // answered with a finished job's every answer would otherwise cost a JSON tree of them.
        GeminiBatch(try await sendBatchCreate(body: body, model: model, as: GeminiBatchOperation.self))
    }

    /// `GET batches/ID` read as a stream: the Operation goes to a temporary file and its inline
    /// answers are handed to `item` one at a time, in the order the server wrote them (not
    /// necessarily input order: match them by ``GeminiBatchItem/key``), so a job of 100,000
    /// answers never sits whole in memory.
    /// - Parameters:
    ///   - name: the job, `batches/ID`.
    ///   - folder: where the temporary file goes (the system's temporary folder by default; the
    ///     shell passes its state folder's `tmp/`).
    ///   - item: called with each inline answer, in the order the server wrote them.
    /// - Returns: the job; its ``GeminiBatch/inlinedResponses`` is `[]` when the job has inline
    ///   output (handed to `item`), `nil` when it has none.
    /// - Throws: ``GeminiError`` after retries (a body that is not an Operation is
    ///   `decodingFailed`), what `item` throws, or `CancellationError`.
    public func getBatch(
        _ name: String, folder: URL = FileManager.default.temporaryDirectory,
        forEachItem item: (GeminiBatchItem) throws -> Void
    ) async throws -> GeminiBatch {
        let file = folder.appendingPathComponent("sophon-batch-\(UUID().uuidString.lowercased()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try await download(
            label: "batchGet", endpoint: GeminiEndpoint(path: name), to: file, accept: "application/json"
        ) { http, data in
            throw GeminiStatusClassifier.classify(
                status: http.status, headers: http.headers, body: data, modelID: nil)
        }
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw GeminiError.transport(.other, detail: "\(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var scanner = GeminiBatchOperationScanner(descriptor: descriptor)
        do {
            try scanner.scan { bytes in try item(Self.batchItem(Data(bytes))) }
            return GeminiBatch(
                try JSONDecoder().decode(GeminiBatchOperation.self, from: Data(scanner.stripped)))
        } catch let malformed as GeminiBatchOperationScanner.Malformed {
            throw GeminiError.decodingFailed(
                reason: "the batch \(name) is not a complete JSON Operation (byte \(malformed.offset))",
                excerpt: "")
        } catch let error as DecodingError {
            throw GeminiError.decodingFailed(reason: "the batch \(name): \(error)", excerpt: "")
        }
    }

    /// Downloads the file `name` (`files/ID`, a batch's ``GeminiBatch/responsesFile``) to
    /// `destination` as it arrives, never whole in memory; a failed attempt is retried from the
    /// start under the retry policy. The whole-call limit does not apply (a large file may take
    /// longer); the configured request timeout still ends a stalled download.
    /// - Returns: the number of bytes written.
    /// - Throws: ``GeminiFileError/notDownloadable(name:)`` for a 400,
    ///   ``GeminiFileError/notFound(name:message:)`` for a 403, ``GeminiError``.
    @discardableResult
    public func downloadFile(_ name: String, to destination: URL, retryPolicy: GeminiRetryPolicy? = nil)
        async throws -> Int
    {
        try await download(
            label: "downloadFile", endpoint: .download(name), to: destination, accept: "*/*",
            retryPolicy: retryPolicy
        ) { http, data in
            try Self.checkFileStatus(http, body: data, name: name, downloading: true)
        }
    }

    /// Calls `item` with every answer of a results file (JSON Lines of `{key, response | error}`,
    /// docs/running-many-prompts.md), read one line at a time; lines that are not answers are
    /// skipped.
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`other`) when the file cannot be opened,
    ///   or what `item` throws.
    public static func forEachBatchItem(inResultsFile url: URL, _ item: (GeminiBatchItem) throws -> Void)
        throws
    {
        guard let file = fopen(url.path, "r") else {
            throw GeminiError.transport(.other, detail: "\(url.path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let count = getline(&buffer, &capacity, file)
            guard count >= 0, let buffer else { return }
            let line = Data(bytes: buffer, count: count)
            guard line.contains(where: { $0 == UInt8(ascii: "{") }),
                let decoded = try? JSONDecoder().decode(GeminiBatchOperation.Item.self, from: line)
            else { continue }
            try item(GeminiBatchItem(decoded))
        }
    }

    /// One inline answer (`{metadata?, response | error}`) from its JSON bytes.
    static func batchItem(_ data: Data) throws -> GeminiBatchItem {
        GeminiBatchItem(try JSONDecoder().decode(GeminiBatchOperation.Item.self, from: data))
    }

    /// GETs `endpoint` streaming its body into `destination` (truncated on each attempt); a
    /// non-200 reply is read whole and handed to `failure`, which throws.
    @discardableResult
    private func download(
        label: String, endpoint: GeminiEndpoint, to destination: URL, accept: String,
        retryPolicy: GeminiRetryPolicy? = nil,
        failure: @escaping @Sendable (GeminiHTTPResponse, Data) throws -> Void
    ) async throws -> Int {
        let path = destination.path
        var call = GeminiAPICall<Int>(
            label: label, method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil }, streaming: true
        ) { http, _ in
            guard http.status == 200 else {
                let data = try await GeminiAPIClient.collectBody(of: http)
                try failure(http, data)
                return 0
            }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw GeminiError.transport(.other, detail: "\(path): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            var written = 0
            func append(_ chunk: Data) throws {
                do {
                    try FileDescriptorWriter.writeAll(descriptor, chunk)
                } catch {
                    throw GeminiError.transport(.other, detail: "\(path): \(error)")
                }
                written += chunk.count
            }
            do {
                switch http.body {
                case .data(let data): try append(data)
                case .stream(let stream): for try await chunk in stream { try append(chunk) }
                }
            } catch let error as GeminiError {
                throw AttemptError(error)
            }
            return written
        }
        call.headers = ["accept": accept]
        // A body of gigabytes may take longer than the whole-call limit: only the transport's
        // request timeout (a stall) ends a download.
        call.ownsDeadline = false
        return try await perform(call, retryPolicy: retryPolicy).value
    }
}

extension GeminiBatchItem {
    /// An item as the Operation decoder read it (its key from `metadata.key`, else `key`).
    init(_ item: GeminiBatchOperation.Item) {
        self.init(key: item.metadata?.key?.text ?? item.key?.text, response: item.response, error: item.error)
    }
}
