import Foundation
import SophonGemini

/// SophonMedia's ``GeminiImageDownscaler``: ``MediaImageCodec/reencode(_:longestSide:quality:maxPixels:)``
/// at JPEG quality 80 with the 100-megapixel header limit; any decoding failure gives `nil`, so
/// the client keeps the original bytes. The shell puts one in its client configuration.
public struct MediaImageDownscaler: GeminiImageDownscaler {
    /// The most pixels an image may have (from its header) to be decoded.
    public var maxPixels: Int
    /// The JPEG quality of the result (1...100).
    public var quality: Int

    /// Creates a downscaler; the defaults are the 100-megapixel limit and quality 80.
    public init(
        maxPixels: Int = MediaImageCodec.defaultMaxPixels, quality: Int = MediaImageCodec.defaultQuality
    ) {
        self.maxPixels = maxPixels
        self.quality = quality
    }

    /// `data` re-encoded at most `longestSide` pixels on its longest side, or `nil` when it
    /// cannot be decoded (see ``GeminiImageDownscaler/downscale(_:mimeType:longestSide:)``).
    public func downscale(_ data: Data, mimeType: String, longestSide: Int) -> Data? {
        try? MediaImageCodec.reencode(data, longestSide: longestSide, quality: quality, maxPixels: maxPixels)
    }
}
