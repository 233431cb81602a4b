/// The EXIF `Orientation` tag (0x0112) values, 1 to 8: how the stored pixels must be turned
/// to display upright (EXIF 2.3, "Orientation"; docs/media.md).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180 degrees.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored across the top-left to bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// Displayed by turning 90 degrees clockwise.
    case right = 6
    /// Mirrored across the top-right to bottom-left diagonal (transverse).
    case rightMirrored = 7
    /// Displayed by turning 90 degrees counter-clockwise.
    case left = 8

    /// Whether displaying swaps width and height (5 to 8).
    public var swapsSides: Bool { rawValue >= 5 }

    /// `image` turned upright.
    public func apply(to image: RGBImage) -> RGBImage {
        if self == .up { return image }
        let width = image.width
        let height = image.height
        let outWidth = swapsSides ? height : width
        let outHeight = swapsSides ? width : height
        let pixels = image.pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = sourcePosition(x: x, y: y, width: width, height: height)
                        let from = (sy * width + sx) * 3
                        let to = (y * outWidth + x) * 3
                        out[to] = source[from]
                        out[to + 1] = source[from + 1]
                        out[to + 2] = source[from + 2]
                    }
                }
                initialized = width * height * 3
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// The stored pixel shown at upright position (`x`, `y`) of a `width` x `height` stored image.
    private func sourcePosition(x: Int, y: Int, width: Int, height: Int) -> (Int, Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }
}
