import Foundation

@testable import SophonMedia

/// Fuzz target `media`: hostile JPEG, PNG and WebP bytes through SophonMedia's decoders
/// (TurboJPEG, libpng, libwebp, the EXIF orientation reader), then the Lanczos resize, the
/// orientation and the JPEG encoder on what decodes. The first byte picks the longest side of
/// the re-encode. The pixel limit is 4 megapixels here, and scripts/fuzz runs this target
/// with `-malloc_limit_mb=256`: a header claiming more pixels must be refused before any pixel
/// buffer is allocated, or libFuzzer reports the allocation.
enum MediaFuzz {
    static let maxPixels = 4_000_000

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let longestSide = 1 + Int(input.byte()) % 96
        let data = Data(input.rest)
        let decoded: DecodedImage
        do {
            decoded = try MediaImageCodec.decode(data, maxPixels: maxPixels, minimumLongestSide: longestSide)
        } catch let error as MediaImageError {
            if case .tooManyPixels(let width, let height, let limit) = error {
                fuzzRequire(width * height > limit, "refused \(width)x\(height) under the limit")
            }
            return
        } catch {
            fuzzRequire(false, "decode threw \(error)")
            return
        }
        fuzzRequire(decoded.width * decoded.height <= maxPixels, "decoded past the pixel limit")
        fuzzRequire(
            decoded.image.width <= decoded.width && decoded.image.height <= decoded.height,
            "decoded larger than the header")
        let target = MediaImageCodec.fittedSize(
            width: decoded.width, height: decoded.height, longestSide: longestSide)
        let resized = LanczosResampler.resize(decoded.image, width: target.width, height: target.height)
        let upright = decoded.orientation.apply(to: resized)
        fuzzRequire(max(upright.width, upright.height) <= max(longestSide, 1), "resized past the target")
        guard let jpeg = try? MediaImageCodec.encodeJPEG(upright) else {
            fuzzRequire(false, "could not encode \(upright.width)x\(upright.height)")
            return
        }
        let again = try? MediaImageCodec.decode(jpeg)
        fuzzRequire(
            again?.width == upright.width && again?.height == upright.height,
            "the re-encode does not round-trip")
    }
}

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    MediaFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
