import CImageCodecs
import Foundation

@testable import SophonMedia

/// Test images made in the test itself: rasters, JPEG via TurboJPEG, EXIF segments, CRCs.
enum TestImages {
    /// A `width` x `height` raster with busy content (a coarse colour pattern plus a
    /// deterministic speckle), so it compresses badly and a smaller re-encode is a real gain; the
    /// top-left 200 x 200 pixels are pure red, as a landmark for orientation checks.
    static func busy(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = UInt8(truncatingIfNeeded: seed >> 24) & 0x3F
                let at = (y * width + x) * 3
                if x < 200 && y < 200 {
                    pixels[at] = 255
                    pixels[at + 1] = 0
                    pixels[at + 2] = 0
                } else {
                    pixels[at] = UInt8(truncatingIfNeeded: x / 4) &+ noise
                    pixels[at + 1] = UInt8(truncatingIfNeeded: y / 4) &+ noise
                    pixels[at + 2] = UInt8(truncatingIfNeeded: (x + y) / 8) &+ noise
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// `jpeg` with an APP1 Exif segment holding orientation `value` inserted after SOI, in
    /// little-endian (`II`) or big-endian (`MM`) TIFF order.
    static func withOrientation(_ jpeg: Data, _ value: Int, littleEndian: Bool = false) -> Data {
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] {
            littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF)
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8)
        // IFD0: two entries (an unrelated tag first), then the next-IFD offset 0.
        tiff += u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + [0x41, 0x42, 0x43, 0]
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0]
        tiff += u32(0)
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
    }

    /// `jpeg` with the size in its first SOFn segment replaced by `width` x `height`.
    static func withSOFSize(_ jpeg: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC3).contains(marker) {
                bytes[index + 5] = UInt8(height >> 8)
                bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8)
                bytes[index + 8] = UInt8(width & 0xFF)
                break
            }
            index += 2 + length
        }
        return Data(bytes)
    }

    /// `png` with the IHDR size replaced by `width` x `height` and the chunk's CRC recomputed.
    static func withIHDRSize(_ png: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](png)
        // Signature (8), length (4), "IHDR" (4), then width and height, big-endian.
        let size = [width, height].flatMap { v in [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
        bytes.replaceSubrange(16..<24, with: size)
        let crc = crc32(Array(bytes[12..<29]))
        bytes.replaceSubrange(29..<33, with: [24, 16, 8, 0].map { UInt8((crc >> UInt32($0)) & 0xFF) })
        return Data(bytes)
    }

    /// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320, reflected).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `cmyk` pixels (`width * height * 4`, Adobe-inverted as libjpeg-turbo expects) as a JPEG.
    static func cmykJPEG(_ cmyk: [UInt8], width: Int, height: Int) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = cmyk.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_CMYK.rawValue),
                &output,
                &size, Int32(TJSAMP_444.rawValue), 100, 0)
        }
        precondition(status == 0 && output != nil)
        defer { tjFree(output) }
        return Data(bytes: output!, count: Int(size))
    }

    /// 8-bit RGBA pixels as a lossless WebP.
    static func webp(rgba: [UInt8], width: Int, height: Int) -> Data {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = rgba.withUnsafeBufferPointer {
            WebPEncodeLosslessRGBA($0.baseAddress, Int32(width), Int32(height), Int32(width * 4), &output)
        }
        precondition(size > 0 && output != nil)
        defer { WebPFree(output) }
        return Data(bytes: output!, count: size)
    }
}
