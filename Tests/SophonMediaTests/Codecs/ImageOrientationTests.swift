import Testing

@testable import SophonMedia

/// The eight EXIF orientations on a 2 x 3 image whose pixels are a...f (row by row).
@Suite struct ImageOrientationTests {
    static let stored = RGBImage(width: 2, height: 3, pixels: (1...6).flatMap { [UInt8($0 * 10), 0, 0] })

    static let expected: [(ImageOrientation, Int, [UInt8])] = [
        (.up, 2, [1, 2, 3, 4, 5, 6]),
        (.upMirrored, 2, [2, 1, 4, 3, 6, 5]),
        (.down, 2, [6, 5, 4, 3, 2, 1]),
        (.downMirrored, 2, [5, 6, 3, 4, 1, 2]),
        (.leftMirrored, 3, [1, 3, 5, 2, 4, 6]),
        (.right, 3, [5, 3, 1, 6, 4, 2]),
        (.rightMirrored, 3, [6, 4, 2, 5, 3, 1]),
        (.left, 3, [2, 4, 6, 1, 3, 5]),
    ]

    @Test func eachOrientationTurnsThePixelsUpright() {
        for (orientation, width, labels) in Self.expected {
            let upright = orientation.apply(to: Self.stored)
            #expect(upright.width == width, "\(orientation)")
            #expect(upright.height == 6 / width, "\(orientation)")
            #expect(
                stride(from: 0, to: upright.pixels.count, by: 3).map { upright.pixels[$0] / 10 } == labels)
        }
    }

    @Test func lanczosKeepsAFlatColourExactAndHitsTheTargetSize() {
        let flat = RGBImage(
            width: 100, height: 50, pixels: [UInt8]((0..<5000).flatMap { _ in [10, 200, 30] as [UInt8] }))
        let resized = LanczosResampler.resize(flat, width: 37, height: 19)
        #expect([resized.width, resized.height] == [37, 19] as [Int])
        #expect(
            Set(
                stride(from: 0, to: resized.pixels.count, by: 3).map {
                    resized.pixel(x: ($0 / 3) % 37, y: ($0 / 3) / 37)
                }) == [[10, 200, 30]])
    }
}
