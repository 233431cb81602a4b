import Foundation

/// Inline media parts from files: the MIME type sniffed from magic bytes, the size checked
/// before the file is read, the request total capped (the API takes at most 20 MB inline).
///
/// Send media parts before the prompt text (``GeminiAPIClient/buildRequest(parts:promptText:responseSchema:systemInstruction:generationConfig:)``
/// does). Re-encoding images smaller on retry is ``GeminiMediaDownscale``'s job, with the codec
/// a ``GeminiImageDownscaler`` provides.
public enum GeminiMedia {
    /// The MIME type of `data` from its first bytes: `image/png`, `image/jpeg`, `image/webp`,
    /// `image/gif`, `image/heic`, `application/pdf`, or `text/plain` for NUL-free UTF-8;
    /// `nil` for anything else.
    public static func sniffMIMEType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) {
                return "image/heic"
            }
        }
        if !data.contains(0), String(validating: data, as: UTF8.self) != nil { return "text/plain" }
        return nil
    }

    /// An inline-data part holding the file at `url`.
    /// - Parameters:
    ///   - url: the file.
    ///   - limit: the most bytes accepted; checked from the file size before reading.
    /// - Throws: ``GeminiError/mediaTooLarge(path:bytes:limit:)``,
    ///   ``GeminiError/mediaUnreadable(path:reason:)`` (missing, unreadable, unknown type).
    public static func inlinePart(contentsOf url: URL, limit: Int = GeminiInlineLimit.bytes) throws -> Part {
        let path = url.path
        let size: Int
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw GeminiError.mediaUnreadable(path: path, reason: "no such file")
        }
        guard size <= limit else { throw GeminiError.mediaTooLarge(path: path, bytes: size, limit: limit) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GeminiError.mediaUnreadable(path: path, reason: error.localizedDescription)
        }
        return try inlinePart(data: data, name: path, limit: limit)
    }

    /// An inline-data part holding `data` (already in memory), its MIME type sniffed.
    /// - Parameters:
    ///   - data: the encoded file (PNG, JPEG, WebP, GIF, HEIC, PDF, plain text).
    ///   - name: what errors call it (a path, or `image 1`).
    ///   - limit: the most bytes accepted.
    /// - Throws: ``GeminiError/mediaTooLarge(path:bytes:limit:)`` past `limit`,
    ///   ``GeminiError/mediaUnreadable(path:reason:)`` for an unknown type.
    public static func inlinePart(data: Data, name: String, limit: Int = GeminiInlineLimit.bytes) throws
        -> Part
    {
        guard data.count <= limit else {
            throw GeminiError.mediaTooLarge(path: name, bytes: data.count, limit: limit)
        }
        guard let mimeType = sniffMIMEType(data) else {
            throw GeminiError.mediaUnreadable(
                path: name, reason: "not a supported media type (PNG, JPEG, WebP, GIF, HEIC, PDF, plain text)"
            )
        }
        return .inlineData(mimeType: mimeType, data: data)
    }

    /// Inline parts for `urls`, in order, within the configuration's limits.
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:server:)`` for more files than
    ///   `maxMediaParts`; ``GeminiError/mediaTooLarge(path:bytes:limit:)`` when a file or the
    ///   running total passes `maxInlineMediaBytes`; as ``inlinePart(contentsOf:limit:)``.
    public static func inlineParts(contentsOf urls: [URL], configuration: GeminiClientConfiguration) throws
        -> [Part]
    {
        try inlineParts(urls, configuration: configuration) { url, limit in
            try inlinePart(contentsOf: url, limit: limit)
        }
    }

    /// Inline parts for in-memory files, in order, within the configuration's limits; errors
    /// name them `item 1`, `item 2`, ...
    /// - Throws: as ``inlineParts(contentsOf:configuration:)``, and as
    ///   ``inlinePart(data:name:limit:)``.
    public static func inlineParts(data items: [Data], configuration: GeminiClientConfiguration) throws
        -> [Part]
    {
        try inlineParts(Array(items.enumerated()), configuration: configuration) { item, limit in
            try inlinePart(data: item.element, name: "item \(item.offset + 1)", limit: limit)
        }
    }

    /// Refuses more media files than `configuration.maxMediaParts`, before any is read.
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:server:)``
    ///   (`Too many media files: 12 (the limit is 10).`).
    static func checkCount(_ count: Int, configuration: GeminiClientConfiguration) throws {
        guard count <= configuration.maxMediaParts else {
            throw GeminiError.invalidRequest(
                message: "Too many media files: \(count) (the limit is \(configuration.maxMediaParts)).",
                fieldViolations: [])
        }
    }

    /// The parts `part` makes of `sources`, each given the bytes still allowed; refuses more
    /// sources than `maxMediaParts` before making any.
    private static func inlineParts<Source>(
        _ sources: [Source], configuration: GeminiClientConfiguration, part: (Source, Int) throws -> Part
    ) throws -> [Part] {
        try checkCount(sources.count, configuration: configuration)
        var parts: [Part] = []
        var total = 0
        for source in sources {
            let made = try part(source, configuration.maxInlineMediaBytes - total)
            total += made.inlineData?.data.count ?? 0
            parts.append(made)
        }
        return parts
    }
}

extension GeminiMedia {
    /// The MIME type of `data` from its first bytes, covering what ``sniffMIMEType(_:)`` knows
    /// plus audio (MP3, WAV, AIFF, FLAC, OGG/Opus, AAC, M4A) and video (MP4, MOV, 3GP, WebM,
    /// AVI, MPEG); `nil` for anything else (``describeUnknownType(_:)`` names it for messages).
    public static func sniffMediaType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(64))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return "audio/wav" }
        if ascii("RIFF"), ascii("AVI ", at: 8) { return "video/x-msvideo" }
        if ascii("FORM"), ascii("AIFF", at: 8) || ascii("AIFC", at: 8) { return "audio/aiff" }
        if ascii("fLaC") { return "audio/flac" }
        if ascii("OggS") { return "audio/ogg" }
        if ascii("ID3") { return "audio/mpeg" }
        if bytes.count >= 2, bytes[0] == 0xFF {
            if bytes[1] & 0xF6 == 0xF0 { return "audio/aac" }  // ADTS: sync, layer 00
            if bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return "audio/mpeg" }  // MPEG audio frame
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if starts([0x00, 0x00, 0x01, 0xBA]) || starts([0x00, 0x00, 0x01, 0xB3]) { return "video/mpeg" }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            switch brand {
            case "M4A ", "M4B ", "M4P ": return "audio/mp4"
            case "qt  ": return "video/quicktime"
            case let name where name.hasPrefix("3g"): return "video/3gpp"
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": break
            default: return "video/mp4"
            }
        }
        return sniffMIMEType(data)
    }

    /// The bytes of the media file at `url` and their type: `mimeType`, or else what
    /// ``sniffMediaType(_:)`` finds (images, PDF, text, audio, video). The one read of a media
    /// file for uploads and media parts.
    /// - Throws: ``GeminiError/mediaUnreadable(path:reason:)`` for a file that cannot be read
    ///   (`no such file or not readable`) or whose type is not found (`unsupported type
    ///   application/zip`, named by ``describeUnknownType(_:)``).
    public static func readFile(_ url: URL, mimeType: String?) throws -> (data: Data, mimeType: String) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw GeminiError.mediaUnreadable(path: url.path, reason: "no such file or not readable")
        }
        guard let type = mimeType ?? sniffMediaType(data) else {
            throw GeminiError.mediaUnreadable(
                path: url.path, reason: "unsupported type \(describeUnknownType(data))")
        }
        return (data, type)
    }

    /// A name for bytes ``sniffMediaType(_:)`` does not accept, for error messages: `zip`,
    /// `gzip`, `ELF executable`, `binary data`.
    public static func describeUnknownType(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        if bytes.starts(with: [0x1F, 0x8B]) { return "application/gzip" }
        if bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "application/x-executable" }
        if data.isEmpty { return "empty file" }
        return "application/octet-stream"
    }
}

/// The downscale-on-retry rule (docs/library.md, "Downscale on retry"): after a transport
/// failure under a policy with ``GeminiRetryPolicy/downscale`` on, each image part of the next
/// attempt is re-encoded to a longest side of at most 1536 px; after a second one, 768 px.
/// A part keeps its original bytes when the codec cannot decode it or the result is not
/// smaller.
public enum GeminiMediaDownscale {
    /// The longest side, in pixels, of the re-encode at `step` (1: 1536, 2 or more: 768);
    /// `nil` for step 0 (originals).
    public static func longestSide(step: Int) -> Int? {
        switch step {
        case ...0: nil
        case 1: 1536
        default: 768
        }
    }

    /// `request` with every inline image part (MIME type `image/...`) in its contents
    /// re-encoded by `downscaler` at `step`; non-image parts, file parts and images the codec
    /// cannot shrink are kept as they are. A re-encoded part has MIME type `image/jpeg`.
    public static func apply(
        to request: GenerateContentRequest, step: Int, downscaler: any GeminiImageDownscaler
    ) -> GenerateContentRequest {
        guard let side = longestSide(step: step) else { return request }
        var result = request
        result.contents = request.contents.map { content in
            var content = content
            content.parts = content.parts?.map { part in
                guard let blob = part.inlineData, blob.mimeType.hasPrefix("image/") else { return part }
                guard
                    let smaller = downscaler.downscale(blob.data, mimeType: blob.mimeType, longestSide: side),
                    smaller.count < blob.data.count
                else { return part }
                var changed = part
                changed.inlineData = Blob(mimeType: "image/jpeg", data: smaller)
                return changed
            }
            return content
        }
        return result
    }
}

/// Re-encodes one image smaller: what the client uses to downscale image parts when it retries
/// after a transport failure (docs/library.md, "Downscale on retry"). SophonGemini ships no
/// codec; the `SophonMedia` target provides one (`MediaImageDownscaler`: TurboJPEG, libpng and
/// libwebp on Linux, ImageIO on Apple), and ``GeminiClientConfiguration/imageDownscaler``
/// injects it.
public protocol GeminiImageDownscaler: Sendable {
    /// `data` decoded, its EXIF orientation applied, resized to a longest side of at most
    /// `longestSide` pixels (never upscaled), alpha flattened onto white, and encoded as JPEG
    /// quality 80; `nil` when the image cannot be decoded (unknown format, corrupt bytes, or
    /// more pixels than the codec's header limit allows). The caller decides whether the
    /// result is worth sending (it keeps the original unless the result is smaller).
    /// - Parameters:
    ///   - data: the encoded image (JPEG, PNG or WebP; other formats give `nil`).
    ///   - mimeType: the part's MIME type, as sniffed or given.
    ///   - longestSide: the largest width or height of the result, in pixels.
    func downscale(_ data: Data, mimeType: String, longestSide: Int) -> Data?
}
