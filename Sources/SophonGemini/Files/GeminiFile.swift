import Foundation

/// One file of the Files API (the API's `File` resource, docs/library.md "Files"). Every field
/// is optional: the server omits empty ones. `sizeBytes` is an int64 sent as a string.
public struct GeminiFile: Codable, Sendable, Hashable {
    /// The resource name, `files/ID`.
    public var name: String?
    /// The display name given at upload (at most 512 characters).
    public var displayName: String?
    /// The MIME type declared at upload.
    public var mimeType: String?
    /// The size in bytes, as a decimal string.
    public var sizeBytes: String?
    /// Creation time, RFC 3339.
    public var createTime: String?
    /// Last update time, RFC 3339.
    public var updateTime: String?
    /// When the server deletes the file (48 h after creation), RFC 3339.
    public var expirationTime: String?
    /// Base64 of the content's SHA-256 as the server computed it.
    public var sha256Hash: String?
    /// The URI to reference the file with in a `fileData` part.
    public var uri: String?
    /// The download URI (generated files only).
    public var downloadUri: String?
    /// `PROCESSING`, `ACTIVE`, `FAILED` or `STATE_UNSPECIFIED`.
    public var state: String?
    /// `UPLOADED`, `GENERATED` or `REGISTERED`.
    public var source: String?
    /// Why processing failed (when `state` is `FAILED`).
    public var error: GoogleRPCStatus?

    /// Creates a file description (tests and fakes; the client decodes it from replies).
    public init(
        name: String? = nil, displayName: String? = nil, mimeType: String? = nil, sizeBytes: String? = nil,
        uri: String? = nil, state: String? = nil
    ) {
        self.name = name
        self.displayName = displayName
        self.mimeType = mimeType
        self.sizeBytes = sizeBytes
        self.uri = uri
        self.state = state
    }

    /// The size as a number (`sizeBytes` parsed), or `nil`.
    public var size: Int? { sizeBytes.flatMap { Int($0) } }

    /// When the server deletes the file (`expirationTime` parsed), or `nil`.
    public var expirationDate: Date? {
        guard let text = expirationTime else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Checks the file can be used in a request at `now`.
    /// - Throws: ``GeminiFileError/expired(name:expirationTime:)`` past its `expirationTime`,
    ///   ``GeminiFileError/processingFailed(name:message:)`` when `FAILED`.
    public func checkUsable(now: Date = Date()) throws {
        if let date = expirationDate, date <= now {
            throw GeminiFileError.expired(name: name ?? "?", expirationTime: expirationTime ?? "")
        }
        if state == "FAILED" {
            throw GeminiFileError.processingFailed(name: name ?? "?", message: error?.message)
        }
    }

    /// A `fileData` part referencing this file by its `uri` (`nil` without one).
    public var part: Part? {
        uri.map { Part(fileData: FileData(mimeType: mimeType, fileUri: $0)) }
    }
}

/// One page of `GET /v1beta/files`: `{"files": [...], "nextPageToken": "..."}`; a missing
/// `files` is an empty page.
public struct ListFilesResponse: Codable, Sendable, Hashable {
    /// The files of this page.
    public var files: [GeminiFile]?
    /// The token of the next page; absent or empty on the last.
    public var nextPageToken: String?
}

/// The body of the upload's final reply: `{"file": {...}}`.
struct UploadedFileReply: Codable, Sendable {
    var file: GeminiFile?
}

/// The processing state of an uploaded file (the Files API's `File.state`).
public enum GeminiFileState: String, Sendable, Hashable, CaseIterable {
    /// `PROCESSING`: not usable yet (videos, large files).
    case processing = "PROCESSING"
    /// `ACTIVE`: usable in requests.
    case active = "ACTIVE"
    /// `FAILED`: processing failed; ``GeminiFile/error`` says why.
    case failed = "FAILED"
    /// `STATE_UNSPECIFIED`, a value this client does not know, or no state (read as usable,
    /// as ``GeminiAPIClient/waitUntilActive(_:timeout:retryPolicy:)-(String,_,_)`` does).
    case unspecified = "STATE_UNSPECIFIED"
}

extension GeminiFile {
    /// ``state`` as a ``GeminiFileState`` (no state or an unknown one is ``GeminiFileState/unspecified``).
    public var processingState: GeminiFileState {
        state.flatMap(GeminiFileState.init(rawValue:)) ?? .unspecified
    }

    /// The file's resource name, `files/ID`: the API sets it on every file it returns (empty
    /// only for a value built by hand without one).
    public var resourceName: String { name ?? "" }
}

extension Part {
    /// A `fileData` part referencing an uploaded file by its `uri` and MIME type: what
    /// ``GeminiFile/part`` gives, without an optional (the API sets `uri` on every file it
    /// returns).
    public static func file(_ file: GeminiFile) -> Part {
        Part(fileData: FileData(mimeType: file.mimeType, fileUri: file.uri ?? ""))
    }
}

extension GeminiAPIClient {
    /// Waits until an uploaded file is usable: ``waitUntilActive(_:timeout:retryPolicy:)-(String,_,_)`` for
    /// `file`'s name, returning at once (no request) when `file` is already `ACTIVE`.
    /// - Parameters:
    ///   - file: a file returned by an upload or ``getFile(_:retryPolicy:)``.
    ///   - timeout: the longest wait for processing (default 600 s).
    ///   - retryPolicy: overrides the configured policy for each look.
    /// - Returns: the active file.
    /// - Throws: as ``waitUntilActive(_:timeout:retryPolicy:)-(String,_,_)``.
    public func waitUntilActive(
        _ file: GeminiFile, timeout: Duration = .seconds(600), retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiFile {
        if file.processingState == .active { return file }
        return try await waitUntilActive(file.resourceName, timeout: timeout, retryPolicy: retryPolicy)
    }
}
