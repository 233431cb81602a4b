import Foundation
import Testing

@testable import SophonMedia

/// The codecs: decoding, orientation, flattening, the header limit, re-encoding.
@Suite struct MediaImageCodecTests {
    /// The 4000 x 3000 photo turned by EXIF orientation 6, encoded at quality 95.
    static let portraitPhoto: Data = {
        let jpeg = try! MediaImageCodec.encodeJPEG(TestImages.busy(width: 4000, height: 3000), quality: 95)
        return TestImages.withOrientation(jpeg, 6)
    }()

    @Test func aRotatedPhotoIsReencodedUprightAt1536() throws {
        let original = Self.portraitPhoto
        let smaller = try MediaImageCodec.reencode(original, longestSide: 1536)
        #expect(smaller.count < original.count)
        let decoded = try MediaImageCodec.decode(smaller)
        #expect(decoded.width == 1152)
        #expect(decoded.height == 1536)
        #expect(decoded.orientation == .up)
        // The red top-left corner of the stored image is now at the top right.
        let corner = decoded.image.pixel(x: 1140, y: 10)
        #expect(corner[0] > 230 && corner[1] < 25 && corner[2] < 25)
        let other = decoded.image.pixel(x: 10, y: 10)
        #expect(other[0] < 200)
    }

    @Test func theSecondStepIs768AndSmallImagesAreNeverUpscaled() throws {
        let second = try MediaImageCodec.decode(
            try MediaImageCodec.reencode(Self.portraitPhoto, longestSide: 768))
        #expect([second.width, second.height] == [576, 768] as [Int])
        let small = try MediaImageCodec.encodeJPEG(TestImages.busy(width: 300, height: 200))
        let same = try MediaImageCodec.decode(try MediaImageCodec.reencode(small, longestSide: 1536))
        #expect([same.width, same.height] == [300, 200] as [Int])
    }

    @Test func pngAlphaIsFlattenedOntoWhite() throws {
        // 3 x 2: transparent black, opaque red, half-transparent blue; then opaque green row.
        let rgba: [UInt8] = [
            0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 255, 128,
            0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255,
        ]
        let png = try MediaImageCodec.encodePNG(rgba: rgba, width: 3, height: 2)
        let decoded = try MediaImageCodec.decode(png)
        #expect([decoded.width, decoded.height] == [3, 2] as [Int])
        #expect(decoded.image.pixel(x: 0, y: 0) == [255, 255, 255])
        #expect(decoded.image.pixel(x: 1, y: 0) == [255, 0, 0])
        #expect(decoded.image.pixel(x: 2, y: 0) == [127, 127, 255])
        #expect(decoded.image.pixel(x: 0, y: 1) == [0, 255, 0])
        let jpeg = try MediaImageCodec.decode(try MediaImageCodec.reencode(png, longestSide: 1536))
        #expect([jpeg.width, jpeg.height] == [3, 2] as [Int])
    }

    @Test func webpWithAlphaDecodesFlattened() throws {
        let rgba: [UInt8] = [0, 0, 0, 0, 10, 20, 30, 255]
        let decoded = try MediaImageCodec.decode(TestImages.webp(rgba: rgba, width: 2, height: 1))
        #expect(decoded.image.pixels == [255, 255, 255, 10, 20, 30])
    }

    @Test func cmykJPEGBecomesRGB() throws {
        // Adobe-inverted CMYK (C=255 M=0 Y=255 K=255) is magenta; JPEG's YCCK round trip may
        // move a channel by one step.
        let cmyk = [UInt8]((0..<64).flatMap { _ in [255, 0, 255, 255] as [UInt8] })
        let decoded = try MediaImageCodec.decode(TestImages.cmykJPEG(cmyk, width: 8, height: 8))
        let pixel = decoded.image.pixel(x: 3, y: 3).map(Int.init)
        #expect(zip(pixel, [255, 0, 255]).allSatisfy { abs($0 - $1) <= 1 }, "\(pixel)")
    }

    @Test func aTruncatedJPEGDecodesWithTurboJPEGsWarning() throws {
        let jpeg = try MediaImageCodec.encodeJPEG(TestImages.busy(width: 64, height: 64))
        // Cut halfway through the entropy-coded data after the start-of-scan marker.
        let bytes = [UInt8](jpeg)
        let scan = try #require((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let decoded = try MediaImageCodec.decode(jpeg.prefix(scan + (bytes.count - scan) / 2))
        #expect([decoded.width, decoded.height] == [64, 64] as [Int])
    }

    @Test func aHeaderClaiming60000x60000IsRefusedBeforeDecoding() throws {
        let limit = MediaImageError.tooManyPixels(width: 60000, height: 60000, limit: 100_000_000)
        let jpeg = try MediaImageCodec.encodeJPEG(TestImages.busy(width: 16, height: 16))
        #expect(throws: limit) {
            try MediaImageCodec.decode(TestImages.withSOFSize(jpeg, width: 60000, height: 60000))
        }
        let png = try MediaImageCodec.encodePNG(rgba: [1, 2, 3, 255], width: 1, height: 1)
        #expect(throws: limit) {
            try MediaImageCodec.decode(TestImages.withIHDRSize(png, width: 60000, height: 60000))
        }
        #expect(
            MediaImageDownscaler().downscale(
                TestImages.withSOFSize(jpeg, width: 60000, height: 60000), mimeType: "image/jpeg",
                longestSide: 1536)
                == nil)
    }

    @Test func corruptAndUnknownBytesAreRefused() throws {
        let corrupt = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 200))
        #expect(throws: MediaImageError.self) { try MediaImageCodec.decode(corrupt) }
        #expect(throws: MediaImageError.unsupportedFormat) { try MediaImageCodec.decode(Data("GIF89a".utf8)) }
        #expect(MediaImageDownscaler().downscale(corrupt, mimeType: "image/jpeg", longestSide: 1536) == nil)
    }

    @Test(arguments: [false, true])
    func everyEXIFOrientationIsRead(littleEndian: Bool) throws {
        let jpeg = try MediaImageCodec.encodeJPEG(TestImages.busy(width: 8, height: 8))
        for value in 1...8 {
            let decoded = try MediaImageCodec.decode(
                TestImages.withOrientation(jpeg, value, littleEndian: littleEndian))
            #expect(decoded.orientation.rawValue == value)
        }
        #expect(try MediaImageCodec.decode(TestImages.withOrientation(jpeg, 9)).orientation == .up)
    }
}
