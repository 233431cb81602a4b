import Foundation

extension GeminiClientConfiguration {
    /// The most inline media bytes per request (the same value as ``maxInlineMediaBytes``,
    /// default 20 MiB): media past it is uploaded by
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
            let data: Data
            do {
                data = try Data(contentsOf: source, options: .alwaysMapped)
            } catch {
                throw GeminiError.mediaUnreadable(path: source.path, reason: "no such file or not readable")
            }
            guard let type = mimeType ?? GeminiMedia.sniffMediaType(data) else {
                throw GeminiError.mediaUnreadable(
                    path: source.path, reason: "unsupported type \(GeminiMedia.describeUnknownType(data))")
            }
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
