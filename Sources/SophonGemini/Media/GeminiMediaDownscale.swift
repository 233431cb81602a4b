import Foundation

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
