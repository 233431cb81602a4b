import Foundation

#if canImport(CImageCodecs)
    import CImageCodecs
#endif

/// Decoding, resizing and JPEG re-encoding of JPEG, PNG and WebP images (docs/media.md): on
/// Linux through TurboJPEG, libpng and libwebp (the `CImageCodecs` system library target); on
/// Apple platforms ``reencode(_:longestSide:quality:maxPixels:)`` goes through ImageIO and the
/// other functions throw ``MediaImageError/unavailable``.
public enum MediaImageCodec {
    /// The most pixels (width x height, from the header) an image may have: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000

    /// The JPEG quality of re-encoded images.
    public static let defaultQuality = 80

    /// Decodes `data` by its magic bytes (JPEG, PNG, WebP). The size in the header is checked
    /// against `maxPixels` before any pixel buffer is allocated.
    /// - Parameters:
    ///   - minimumLongestSide: lets a JPEG decode smaller in the DCT domain while its longest
    ///     side stays at least this many pixels; 0 decodes at full size.
    /// - Throws: ``MediaImageError`` (`unsupportedFormat`, `tooManyPixels`, `corrupt`,
    ///   `unavailable`).
    public static func decode(_ data: Data, maxPixels: Int = defaultMaxPixels, minimumLongestSide: Int = 0)
        throws -> DecodedImage
    {
        #if canImport(CImageCodecs)
            let format = ImageFormat.of(data)
            return try data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                switch format {
                case .jpeg:
                    return try JPEGCodec.decode(
                        bytes, maxPixels: maxPixels, minimumLongestSide: minimumLongestSide)
                case .png: return try PNGCodec.decode(bytes, maxPixels: maxPixels)
                case .webp: return try WebPCodec.decode(bytes, maxPixels: maxPixels)
                case nil: throw MediaImageError.unsupportedFormat
                }
            }
        #else
            throw MediaImageError.unavailable
        #endif
    }

    /// `image` as a JPEG file at `quality` (1...100), 4:2:0.
    /// - Throws: ``MediaImageError/encodeFailed(message:)``, ``MediaImageError/unavailable``.
    public static func encodeJPEG(_ image: RGBImage, quality: Int = defaultQuality) throws -> Data {
        #if canImport(CImageCodecs)
            return try JPEGCodec.encode(image, quality: quality)
        #else
            throw MediaImageError.unavailable
        #endif
    }

    /// 8-bit RGBA pixels (`width * height * 4` bytes, not premultiplied) as a PNG file.
    /// - Throws: ``MediaImageError/encodeFailed(message:)``, ``MediaImageError/unavailable``.
    public static func encodePNG(rgba: [UInt8], width: Int, height: Int) throws -> Data {
        #if canImport(CImageCodecs)
            return try PNGCodec.encode(rgba: rgba, width: width, height: height)
        #else
            throw MediaImageError.unavailable
        #endif
    }

    /// The size, in pixels, of an upright `width` x `height` image scaled so its longest side is
    /// at most `longestSide` (rounded, at least 1); never larger than the image.
    public static func fittedSize(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide, longestSide > 0 else { return (width, height) }
        let scale = Double(longestSide) / Double(longest)
        return (
            max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// `data` decoded, its EXIF orientation applied, resized with ``LanczosResampler`` so the
    /// longest side is at most `longestSide` pixels (never upscaled), alpha flattened onto white,
    /// and encoded as JPEG at `quality`. Whether the result is worth sending (smaller than
    /// `data`) is the caller's choice.
    /// - Throws: ``MediaImageError``.
    public static func reencode(
        _ data: Data, longestSide: Int, quality: Int = defaultQuality, maxPixels: Int = defaultMaxPixels
    ) throws -> Data {
        #if canImport(CImageCodecs)
            let decoded = try decode(data, maxPixels: maxPixels, minimumLongestSide: longestSide)
            // Resize as stored, then turn upright: the longest side is the same either way.
            let target = fittedSize(width: decoded.width, height: decoded.height, longestSide: longestSide)
            let resized = LanczosResampler.resize(decoded.image, width: target.width, height: target.height)
            return try encodeJPEG(decoded.orientation.apply(to: resized), quality: quality)
        #elseif canImport(ImageIO)
            return try ImageIOReencoder.reencode(
                data, longestSide: longestSide, quality: quality, maxPixels: maxPixels)
        #else
            throw MediaImageError.unavailable
        #endif
    }
}

/// What a decoder gives: the pixels as stored (not yet turned upright), the size its header
/// gave, and the EXIF orientation.
public struct DecodedImage: Sendable, Hashable {
    /// The pixels, alpha flattened onto white. A JPEG may be decoded smaller than its header
    /// size (by 1/2, 1/4 or 1/8 in the DCT domain) when the caller only needs a smaller image.
    public var image: RGBImage
    /// Width from the header, in pixels (as stored).
    public var width: Int
    /// Height from the header, in pixels (as stored).
    public var height: Int
    /// How to turn the stored pixels upright (``ImageOrientation/up`` when none is recorded).
    public var orientation: ImageOrientation
}

/// Why SophonMedia could not decode or encode an image.
public enum MediaImageError: Error, Sendable, Hashable {
    /// The bytes are not JPEG, PNG or WebP (by their magic bytes).
    case unsupportedFormat
    /// The header claims more pixels than the limit (checked before any pixel buffer is
    /// allocated): width and height from the header, and the limit in pixels.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The codec refused the bytes: the format and the codec's message.
    case corrupt(format: String, message: String)
    /// The encoder failed: its message.
    case encodeFailed(message: String)
    /// No codec is available on this platform.
    case unavailable
}

/// The image formats SophonMedia decodes, told apart by their magic bytes.
enum ImageFormat {
    case jpeg
    case png
    case webp

    /// The format of `data`, or `nil` for anything else.
    static func of(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8)
        {
            return .webp
        }
        return nil
    }
}
