import Foundation
import SophonCore

/// The requests of one Batch job, added one at a time and written as they come: as a JSON Lines
/// file (`{"key": K, "request": {...}}` per line, docs/running-many-prompts.md) in a temporary
/// file, and, while the job still fits, as the inline create body too. ``finish()`` says which
/// one to send: the inline body when it stays within ``inlineLimit`` bytes, else the file (to
/// upload with ``GeminiAPIClient/uploadFile(contentsOf:mimeType:displayName:retryPolicy:progress:)``
/// and name in ``GeminiAPIClient/createBatch(displayName:model:fileName:)``). Memory stays
/// bounded by the inline limit whatever the number of requests. The temporary file is removed
/// when the value is released.
public final class GeminiBatchInput {
    /// How a job is sent.
    public enum Body {
        /// The whole create body (`{"batch":{"displayName":..,"inputConfig":{"requests":..}}}`),
        /// for ``GeminiAPIClient/createBatch(displayName:model:body:)``.
        case inline(Data)
        /// A JSON Lines file and its size in bytes, to upload (`application/jsonl`).
        case file(URL, bytes: Int)
    }

    /// The largest inline create body, in bytes (base64 included): ``GeminiInlineLimit/bytes``,
    /// 20,000,000 (docs/running-many-prompts.md, "Inline or file").
    public static let defaultInlineLimit = GeminiInlineLimit.bytes

    /// The display name of the job.
    public let displayName: String
    /// The largest inline body this input sends inline, in bytes.
    public let inlineLimit: Int
    /// The JSON Lines file being written.
    public let fileURL: URL
    /// Requests added so far.
    public private(set) var count = 0
    /// The size in bytes the inline create body has (or would have) with the requests so far.
    public private(set) var inlineBodySize: Int
    /// Bytes written to the JSON Lines file so far.
    public private(set) var fileSize = 0

    private let handle: FileHandle
    private var inlineBody: Data?
    private var pending = Data()
    private let encoder = OrderedJSONEncoder()

    /// Starts an input in `folder` (the system's temporary folder by default).
    /// - Parameters:
    ///   - displayName: the job's display name (it is part of the inline body).
    ///   - inlineLimit: the largest inline body in bytes; values below 0 count as 0 (always a file).
    ///   - folder: where the temporary JSON Lines file is created.
    /// - Throws: SophonCore's `SophonFileError` (`open`) when the temporary file cannot be created.
    public init(
        displayName: String, inlineLimit: Int = defaultInlineLimit,
        folder: URL = FileManager.default.temporaryDirectory
    ) throws {
        self.displayName = displayName
        self.inlineLimit = max(0, inlineLimit)
        fileURL = folder.appendingPathComponent("sophon-batch-\(UUID().uuidString.lowercased()).jsonl")
        // It holds every prompt: private (0600), whatever the umask.
        let descriptor = PrivateFiles.open(fileURL.path, flags: O_WRONLY | O_EXCL | O_TRUNC)
        guard descriptor >= 0 else {
            throw SophonFileError(path: fileURL.path, operation: .open, errorNumber: errno)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var body = Data(#"{"batch":{"displayName":"#.utf8)
        body.append(contentsOf: JSONValue.string(displayName).compactText.utf8)
        body.append(contentsOf: #","inputConfig":{"requests":{"requests":["#.utf8)
        inlineBodySize = body.count + Self.closing.count
        inlineBody = body
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: fileURL)
    }

    private static let closing = Data("]}}}}".utf8)

    /// Adds one request with its key (`metadata.key` inline, `key` in the file).
    /// - Throws: an encoding error for a request that cannot be encoded, or SophonCore's `SophonFileError`
    ///   (`write`) when the file cannot be written.
    public func append(key: String, request: GenerateContentRequest) throws {
        let encoded = try encoder.encodeData(request)
        let keyText = JSONValue.string(key).compactText
        pending.append(contentsOf: #"{"key":"#.utf8)
        pending.append(contentsOf: keyText.utf8)
        pending.append(contentsOf: #","request":"#.utf8)
        pending.append(encoded)
        pending.append(contentsOf: "}\n".utf8)
        if pending.count >= 1 << 20 { try flush() }
        // {"request":R,"metadata":{"key":K}} and a comma before every item but the first.
        let itemSize = 11 + encoded.count + 21 + keyText.utf8.count + (count > 0 ? 1 : 0)
        inlineBodySize += itemSize
        count += 1
        if inlineBodySize > inlineLimit {
            inlineBody = nil
        } else if inlineBody != nil {
            if count > 1 { inlineBody?.append(contentsOf: ",".utf8) }
            inlineBody?.append(contentsOf: #"{"request":"#.utf8)
            inlineBody?.append(encoded)
            inlineBody?.append(contentsOf: #","metadata":{"key":"#.utf8)
            inlineBody?.append(contentsOf: keyText.utf8)
            inlineBody?.append(contentsOf: "}}".utf8)
        }
    }

    /// Ends the input: the inline body when it fits within ``inlineLimit``, else the file.
    /// - Throws: SophonCore's `SophonFileError` (`write`) when the file cannot be written.
    public func finish() throws -> Body {
        try flush()
        try? handle.synchronize()
        if var body = inlineBody, inlineBodySize <= inlineLimit {
            body.append(Self.closing)
            return .inline(body)
        }
        return .file(fileURL, bytes: fileSize)
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        do {
            try handle.write(contentsOf: pending)
        } catch {
            throw SophonFileError(path: fileURL.path, operation: .write, errorNumber: EIO)
        }
        fileSize += pending.count
        pending.removeAll(keepingCapacity: true)
    }
}
