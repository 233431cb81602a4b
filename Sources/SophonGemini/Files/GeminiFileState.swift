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
