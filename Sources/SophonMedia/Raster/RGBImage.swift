/// An 8-bit RGB raster: rows top to bottom, pixels left to right, three bytes (R, G, B) per
/// pixel, no row padding; what SophonMedia's decoders produce (alpha already flattened onto
/// white) and its JPEG encoder takes.
public struct RGBImage: Sendable, Hashable {
    /// Width in pixels (at least 1).
    public var width: Int
    /// Height in pixels (at least 1).
    public var height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// Creates an image; `pixels` must hold `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "RGBImage: bad shape")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The (R, G, B) of the pixel at column `x`, row `y` (from the top left, 0-based).
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 3
        return Array(pixels[offset..<offset + 3])
    }

    /// An RGB image from 8-bit RGBA `rgba` (not premultiplied), each pixel composited onto
    /// white: `c * a / 255 + 255 * (255 - a) / 255`, rounded.
    public static func flattening(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> RGBImage {
        let count = width * height
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            for index in 0..<count {
                let alpha = UInt32(rgba[index * 4 + 3])
                let white = 255 * (255 - alpha)
                for channel in 0..<3 {
                    let value = UInt32(rgba[index * 4 + channel]) * alpha + white
                    out[index * 3 + channel] = UInt8((value + 127) / 255)
                }
            }
            initialized = count * 3
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
