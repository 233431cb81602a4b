import Foundation
import Synchronization

extension GeminiClientConfiguration {
    /// The most inline media bytes per request (the same value as ``maxInlineMediaBytes``,
    /// default ``GeminiInlineLimit/bytes``, 20,000,000): media past it is uploaded by
    /// ``GeminiAPIClient/mediaParts(for:mimeType:retryPolicy:progress:)``.
    public var inlineMediaLimit: Int {
        get { maxInlineMediaBytes }
        set { maxInlineMediaBytes = newValue }
    }
}

extension GeminiAPIClient {
    /// Parts for `sources`, in order (docs/library.md, "Files"): an `https://` URL becomes a
    /// `fileData` part with the URL; a file goes inline while the request's inline bytes stay
    /// within ``GeminiClientConfiguration/inlineMediaLimit``, and is otherwise uploaded (once
    /// per client for the same bytes, ``uploadFileOnce(data:mimeType:displayName:retryPolicy:progress:)``),
    /// waited for until `ACTIVE`, and sent as `fileData`.
    /// - Parameters:
    ///   - sources: `file:` URLs and `https:` URLs.
    ///   - mimeType: the type of every file; `nil` sniffs each (``GeminiMedia/sniffMediaType(_:)``).
    ///   - retryPolicy: overrides the configured policy for the uploads.
    ///   - progress: upload progress (source, bytes confirmed, total).
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:server:)`` past `maxMediaParts`,
    ///   ``GeminiError/mediaUnreadable(path:reason:)`` for an unreadable file, an unknown type
    ///   or a URL that is neither `file:` nor `https:`; upload errors (``GeminiError``,
    ///   ``GeminiFileError``).
    public func mediaParts(
        for sources: [URL], mimeType: String? = nil, retryPolicy: GeminiRetryPolicy? = nil,
        progress: (@Sendable (URL, Int, Int) -> Void)? = nil
    ) async throws -> [Part] {
        try GeminiMedia.checkCount(sources.count, configuration: configuration)
        var parts: [Part] = []
        var inline = 0
        for source in sources {
            if source.scheme == "https" {
                parts.append(Part(fileData: FileData(mimeType: mimeType, fileUri: source.absoluteString)))
                continue
            }
            guard source.isFileURL else {
                throw GeminiError.mediaUnreadable(
                    path: source.absoluteString, reason: "only file and https URLs")
            }
            let (data, type) = try GeminiMedia.readFile(source, mimeType: mimeType)
            if inline + data.count <= configuration.inlineMediaLimit {
                inline += data.count
                parts.append(.inlineData(mimeType: type, data: data))
                continue
            }
            var report: GeminiUploadProgress?
            if let progress {
                report = { sent, total in progress(source, sent, total) }
            }
            let (file, _) = try await uploadFileOnce(
                data: data, mimeType: type, displayName: source.lastPathComponent, retryPolicy: retryPolicy,
                progress: report)
            let ready = file.state == "PROCESSING" ? try await waitUntilActive(file.name ?? "") : file
            try ready.checkUsable()
            guard let part = ready.part else {
                throw GeminiFileError.uploadFailed(
                    detail: "the server gave no URI for \(source.lastPathComponent)")
            }
            parts.append(part)
        }
        return parts
    }
}

/// The files one client uploaded, by the SHA-256 of their bytes and their MIME type, kept
/// while the file lives (48 h after upload, or its `expirationTime`), so the same bytes are
/// not uploaded twice (docs/library.md, "Files").
final class UploadMemo: Sendable {
    private struct Entry: Sendable {
        var file: GeminiFile
        var expires: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The remembered file for `key`, when it has not expired by `now`.
    func file(for key: String, now: Date = Date()) -> GeminiFile? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.file
        }
    }

    /// Remembers `file` for `key` until its expiration time (48 h from `now` when it has none).
    func remember(_ file: GeminiFile, for key: String, now: Date = Date()) {
        let stated = file.expirationDate
        let expires = stated ?? now.addingTimeInterval(48 * 3600)
        entries.withLock { $0[key] = Entry(file: file, expires: expires) }
    }

    /// Forgets every entry naming `name` (after a delete).
    func forget(name: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.file.name != name } }
    }

    /// Forgets everything.
    func clear() { entries.withLock { $0.removeAll() } }
}
