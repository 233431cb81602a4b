import Foundation

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
