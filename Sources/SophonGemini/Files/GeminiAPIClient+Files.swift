import Foundation
import SophonCore

/// Progress of an upload: bytes the server has confirmed, and the total, both in bytes.
public typealias GeminiUploadProgress = @Sendable (_ sent: Int, _ total: Int) -> Void

extension GeminiAPIClient {
    /// The Files API's chunk size: 8 MiB, as Google's SDKs send.
    public static let uploadChunkSize = 8 * 1024 * 1024

    /// Uploads `data` with the resumable protocol (docs/library.md, "Files"): a `start`
    /// request, then chunks of `chunkSize` bytes, the last one `upload, finalize`. A chunk
    /// that fails with a retryable error is retried under the retry policy, after the wait
    /// `RetryDecision` decides (its attempts count per chunk); before each retry the client asks the server how many bytes
    /// it holds (`query`) and resumes from there, so no byte is sent twice once received.
    /// Every request goes through the client's one call path (key, deadline, masking).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - mimeType: the type declared to the server (`video/mp4`, `application/jsonl`).
    ///   - displayName: a name shown by `files` listings (at most 512 characters), or `nil`.
    ///   - chunkSize: bytes per chunk; 8 MiB by default (values below 1 count as 1).
    ///   - retryPolicy: overrides the configured policy.
    ///   - progress: called with (bytes confirmed, total) after the start and each chunk.
    /// - Returns: the file as the server reported it when finalized (often `PROCESSING` for
    ///   video: see ``waitUntilActive(_:timeout:retryPolicy:)-(String,_,_)``).
    /// - Throws: ``GeminiError`` (HTTP and transport errors after retries),
    ///   ``GeminiFileError/uploadFailed(detail:)`` when the protocol breaks, `CancellationError`.
    public func uploadFile(
        data: Data, mimeType: String, displayName: String? = nil, chunkSize: Int = uploadChunkSize,
        retryPolicy: GeminiRetryPolicy? = nil, progress: GeminiUploadProgress? = nil
    ) async throws -> GeminiFile {
        let policy = retryPolicy ?? configuration.retryPolicy
        let uploadURL = try await startUpload(
            size: data.count, mimeType: mimeType, displayName: displayName, policy: policy)
        progress?(0, data.count)
        var single = policy
        single.attempts = 1
        let chunk = max(chunkSize, 1)
        var offset = 0
        var failures = 0
        while true {
            try Task.checkCancellation()
            let end = min(offset + chunk, data.count)
            let reply: UploadReply
            do {
                reply = try await sendChunk(
                    data.subdata(in: offset..<end), to: uploadURL, offset: offset,
                    finalize: end == data.count,
                    policy: single)
            } catch let error as GeminiError where error.isRetryable {
                failures += 1
                var serverWait: Duration?
                if case .rateLimited(let wait, _) = error { serverWait = wait }
                let decision = RetryDecision.after(
                    AttemptError(error, serverWait: serverWait), attempt: failures,
                    of: max(policy.attempts, 1),
                    policy: policy, timeLeft: nil, random: configuration.random)
                guard case .retry(let wait) = decision else {
                    if case .fail(let failure) = decision { throw failure }
                    throw error
                }
                log(
                    .notice,
                    "uploadFile: chunk at \(offset) failed (\(error.description(language: "en"))); resuming")
                try await configuration.sleep(wait)
                let state = try await queryUpload(uploadURL, policy: policy)
                if let file = state.file { return finished(file, total: data.count, progress: progress) }
                guard let received = state.received, (0...data.count).contains(received) else {
                    throw GeminiFileError.uploadFailed(
                        detail:
                            "the server reported an offset outside the file (\(state.received.map(String.init) ?? "none"))"
                    )
                }
                offset = received
                progress?(offset, data.count)
                continue
            }
            failures = 0
            if let file = reply.file { return finished(file, total: data.count, progress: progress) }
            guard end < data.count else {
                throw GeminiFileError.uploadFailed(
                    detail: "All content has been uploaded, but the upload status is not finalized")
            }
            offset = end
            progress?(offset, data.count)
        }
    }

    /// Uploads the file at `url` (read mapped, not copied); see
    /// ``uploadFile(data:mimeType:displayName:chunkSize:retryPolicy:progress:)``.
    /// - Parameters:
    ///   - url: the file to upload.
    ///   - mimeType: the type to declare; `nil` sniffs it (``GeminiMedia/sniffMediaType(_:)``).
    ///   - displayName: a name shown by `files` listings; `nil` uses the file's name.
    ///   - retryPolicy: overrides the configured policy.
    ///   - progress: called with (bytes confirmed, total) after the start and each chunk.
    /// - Throws: ``GeminiError/mediaUnreadable(path:reason:)`` for a file that cannot be read or
    ///   whose type is unknown; as the data variant.
    public func uploadFile(
        contentsOf url: URL, mimeType: String? = nil, displayName: String? = nil,
        retryPolicy: GeminiRetryPolicy? = nil, progress: GeminiUploadProgress? = nil
    ) async throws -> GeminiFile {
        let (data, type) = try GeminiMedia.readFile(url, mimeType: mimeType)
        return try await uploadFile(
            data: data, mimeType: type, displayName: displayName ?? url.lastPathComponent,
            retryPolicy: retryPolicy, progress: progress)
    }

    /// Uploads `data` unless this client already uploaded the same bytes with the same type
    /// and that file has not expired (remembered by SHA-256 for 48 h or the file's
    /// `expirationTime`).
    /// - Returns: the file, and whether it was uploaded by this call.
    /// - Throws: as ``uploadFile(data:mimeType:displayName:chunkSize:retryPolicy:progress:)``.
    public func uploadFileOnce(
        data: Data, mimeType: String, displayName: String? = nil, retryPolicy: GeminiRetryPolicy? = nil,
        progress: GeminiUploadProgress? = nil
    ) async throws -> (file: GeminiFile, uploaded: Bool) {
        let key = SHA256.hexDigest(data) + " " + mimeType
        if let file = uploadMemo.file(for: key) { return (file, false) }
        let file = try await uploadFile(
            data: data, mimeType: mimeType, displayName: displayName, retryPolicy: retryPolicy,
            progress: progress)
        uploadMemo.remember(file, for: key)
        return (file, true)
    }

    /// Reads the file `name` (`files/ID` or `ID`).
    /// - Parameters:
    ///   - name: the file's name, `files/ID` or `ID`.
    ///   - retryPolicy: overrides the configured policy.
    /// - Throws: ``GeminiFileError/notFound(name:message:)`` for a 403; ``GeminiError``.
    public func getFile(_ name: String, retryPolicy: GeminiRetryPolicy? = nil) async throws -> GeminiFile {
        try await fileCall(
            GeminiFile.self, label: "getFile", method: "GET", endpoint: .file(name), name: name,
            policy: retryPolicy)
    }

    /// One page of the files of the key's project.
    /// - Parameters:
    ///   - pageSize: files per page (server default 10, maximum 100).
    ///   - pageToken: the previous page's `nextPageToken`.
    ///   - retryPolicy: overrides the configured policy.
    /// - Throws: ``GeminiError``.
    public func listFiles(
        pageSize: Int? = nil, pageToken: String? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> ListFilesResponse {
        try await fileCall(
            ListFilesResponse.self, label: "listFiles", method: "GET",
            endpoint: .files(pageSize: pageSize, pageToken: pageToken), name: "files", policy: retryPolicy)
    }

    /// Every file, following `nextPageToken`. A token the server already gave ends the listing
    /// (a server looping on one page would otherwise never end) and is reported to `warning`.
    /// - Throws: as ``listFiles(pageSize:pageToken:retryPolicy:)``.
    public func listAllFiles(
        pageSize: Int? = 100, maxPages: Int = 1000, warning: (@Sendable (String) -> Void)? = nil
    ) async throws -> [GeminiFile] {
        var files: [GeminiFile] = []
        var seen: Set<String> = []
        var token: String?
        for _ in 0..<max(maxPages, 1) {
            let page = try await listFiles(pageSize: pageSize, pageToken: token)
            files += page.files ?? []
            guard let next = page.nextPageToken, !next.isEmpty else { break }
            guard seen.insert(next).inserted else {
                let text = "the server repeated page token '\(next)'; the listing stops here"
                log(.warning, "listFiles: \(text)")
                warning?(text)
                break
            }
            token = next
        }
        return files
    }

    /// Deletes the file `name` (`files/ID` or `ID`) and forgets it as an upload.
    /// - Parameters:
    ///   - name: the file's name, `files/ID` or `ID`.
    ///   - retryPolicy: overrides the configured policy.
    /// - Throws: ``GeminiFileError/notFound(name:message:)`` for a 403; ``GeminiError``.
    public func deleteFile(_ name: String, retryPolicy: GeminiRetryPolicy? = nil) async throws {
        _ = try await fileCall(
            JSONValue.self, label: "deleteFile", method: "DELETE", endpoint: .file(name), name: name,
            policy: retryPolicy)
        uploadMemo.forget(name: name.hasPrefix("files/") ? name : "files/\(name)")
    }

    /// The bytes of a generated file (`files/ID:download?alt=media`).
    /// - Throws: ``GeminiFileError/notDownloadable(name:)`` when the server refuses with 400
    ///   (uploaded files cannot be downloaded), ``GeminiFileError/notFound(name:message:)``,
    ///   ``GeminiError``.
    public func downloadFile(_ name: String, retryPolicy: GeminiRetryPolicy? = nil) async throws -> Data {
        let endpoint = GeminiEndpoint.download(name)
        let call = GeminiAPICall<Data>(
            label: "downloadFile", method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            try Self.checkFileStatus(http, body: data, name: name, downloading: true)
            return data
        }
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Polls the file `name` until it is `ACTIVE`, with backoff (1 s, doubling up to 10 s,
    /// through the configured sleep).
    /// - Parameters:
    ///   - name: the file's name, `files/ID` or `ID`.
    ///   - timeout: the longest wait for processing.
    ///   - retryPolicy: overrides the configured policy for each ``getFile(_:retryPolicy:)``.
    /// - Returns: the active file.
    /// - Throws: ``GeminiFileError/processingFailed(name:message:)`` on `FAILED`,
    ///   ``GeminiFileError/processingTimedOut(name:waited:)``, as ``getFile(_:retryPolicy:)``.
    public func waitUntilActive(
        _ name: String, timeout: Duration = .seconds(600), retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiFile {
        try await GeminiPoller(timeout: timeout, sleep: configuration.sleep).poll {
            let file = try await getFile(name, retryPolicy: retryPolicy)
            switch file.state ?? "ACTIVE" {
            case "ACTIVE", "STATE_UNSPECIFIED": return file
            case "FAILED":
                throw GeminiFileError.processingFailed(name: file.name ?? name, message: file.error?.message)
            default: return nil
            }
        } timedOut: { waited in
            GeminiFileError.processingTimedOut(name: name, waited: waited)
        }
    }
}

extension GeminiAPIClient {
    /// What one upload request learned: the final file, or the bytes received.
    struct UploadReply: Sendable {
        var file: GeminiFile?
        var received: Int?
    }

    private func finished(_ file: GeminiFile, total: Int, progress: GeminiUploadProgress?) -> GeminiFile {
        progress?(total, total)
        return file
    }

    /// A unary Files call whose 403 means the file is missing (not a key problem).
    private func fileCall<Reply: Decodable & Sendable>(
        _ type: Reply.Type, label: String, method: String, endpoint: GeminiEndpoint, name: String,
        policy: GeminiRetryPolicy?
    ) async throws -> Reply {
        let call = GeminiAPICall<Reply>(
            label: label, method: method, namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            try Self.checkFileStatus(http, body: data, name: name)
            return try GeminiAPIClient.decodeBody(Reply.self, from: data.isEmpty ? Data("{}".utf8) : data)
        }
        return try await perform(call, retryPolicy: policy).value
    }

    /// Throws for a non-200 reply: a 400 to a download as
    /// ``GeminiFileError/notDownloadable(name:)``, a 403 as
    /// ``GeminiFileError/notFound(name:message:)`` with the server's status line, the rest as
    /// classified. The one reading of a file call's failure (file calls and downloads).
    static func checkFileStatus(
        _ http: GeminiHTTPResponse, body: Data, name: String, downloading: Bool = false
    ) throws {
        guard http.status != 200 else { return }
        if downloading, http.status == 400 { throw GeminiFileError.notDownloadable(name: name) }
        if http.status == 403 {
            let status = GoogleRPCErrorBody.parse(body)
            let line =
                "HTTP 403 \(status?.status ?? "PERMISSION_DENIED"): \(status?.message ?? "permission denied")"
            throw GeminiFileError.notFound(name: name, message: line)
        }
        throw GeminiStatusClassifier.classify(
            status: http.status, headers: http.headers, body: body, modelID: nil)
    }

    /// Sends `start` and returns the session URL, its scheme, host and port replaced by the
    /// configured base URL's (as Google's SDKs do, so proxies and fakes work).
    private func startUpload(size: Int, mimeType: String, displayName: String?, policy: GeminiRetryPolicy)
        async throws -> URL
    {
        let body = try JSONEncoder().encode(UploadedFileReply(file: GeminiFile(displayName: displayName)))
        var call = GeminiAPICall<URL>(
            label: "uploadFile", method: "POST", namesModel: false, model: nil,
            endpoint: { _ in .uploadFiles },
            body: { _ in body }
        ) { [baseURL = configuration.baseURL] http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data, modelID: nil)
            }
            guard let text = http.headers["x-goog-upload-url"], let url = Self.rebased(text, on: baseURL)
            else {
                throw GeminiFileError.uploadFailed(
                    detail: "the server gave no upload URL (x-goog-upload-url)")
            }
            return url
        }
        call.headers = [
            "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start",
            "x-goog-upload-header-content-length": String(size),
            "x-goog-upload-header-content-type": mimeType,
        ]
        return try await perform(call, retryPolicy: policy).value
    }

    /// `text` with the scheme, host and port of `base`.
    static func rebased(_ text: String, on base: URL) -> URL? {
        guard var parts = URLComponents(string: text),
            let baseParts = URLComponents(url: base, resolvingAgainstBaseURL: false)
        else { return nil }
        parts.scheme = baseParts.scheme
        parts.host = baseParts.host
        parts.port = baseParts.port
        return parts.url
    }

    /// One chunk at `offset`; reads the `x-goog-upload-status` reply.
    private func sendChunk(_ chunk: Data, to url: URL, offset: Int, finalize: Bool, policy: GeminiRetryPolicy)
        async throws -> UploadReply
    {
        var call = uploadCall(url: url, body: chunk)
        call.headers = [
            "x-goog-upload-command": finalize ? "upload, finalize" : "upload",
            "x-goog-upload-offset": String(offset), "content-type": "application/octet-stream",
            // A fresh connection per chunk: URLSession on Linux resends a request whose reused
            // connection was reset without its body, and then waits out the idle timeout.
            "connection": "close",
        ]
        return try await perform(call, retryPolicy: policy).value
    }

    /// Asks how many bytes the server holds (`query`).
    private func queryUpload(_ url: URL, policy: GeminiRetryPolicy) async throws -> UploadReply {
        var call = uploadCall(url: url, body: nil)
        call.headers = ["x-goog-upload-command": "query"]
        return try await perform(call, retryPolicy: policy).value
    }

    private func uploadCall(url: URL, body: Data?) -> GeminiAPICall<UploadReply> {
        var call = GeminiAPICall<UploadReply>(
            label: "uploadFile", method: "POST", namesModel: false, model: nil,
            endpoint: { _ in .uploadFiles }, body: { _ in body }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data, modelID: nil)
            }
            let received = http.headers["x-goog-upload-size-received"].flatMap { Int($0) }
            switch http.headers["x-goog-upload-status"]?.lowercased() {
            case "final":
                let reply = try GeminiAPIClient.decodeBody(UploadedFileReply.self, from: data)
                guard let file = reply.file else {
                    throw GeminiFileError.uploadFailed(detail: "the final reply holds no file")
                }
                return UploadReply(file: file, received: received)
            case "active":
                return UploadReply(file: nil, received: received)
            case "cancelled":
                throw GeminiFileError.uploadFailed(detail: "the server cancelled the upload")
            default:
                throw AttemptError(
                    .transport(.badResponse, detail: "Upload reply without x-goog-upload-status"))
            }
        }
        call.absoluteURL = url
        return call
    }
}
