import Foundation

/// A separable Lanczos-3 resampler for ``RGBImage`` (the kernel `sinc(x) * sinc(x / 3)` for
/// `|x| < 3`, widened by the scale factor when shrinking so every source pixel counts): the
/// rows are resized first, then the columns, in `Float`, each output rounded and clamped to
/// 0...255. Inputs must have no alpha left (decoders flatten it onto white first), so colour
/// never bleeds from transparent pixels.
public enum LanczosResampler {
    /// The half-width of the kernel, in source pixels at scale 1.
    static let lobes = 3.0

    /// `image` resized to `width` x `height` pixels (each at least 1); the same image when the
    /// size is unchanged.
    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0, "LanczosResampler: empty target")
        if width == image.width && height == image.height { return image }
        var current = image
        if width != current.width {
            current = pass(current, horizontal: true, target: width)
        }
        if height != current.height {
            current = pass(current, horizontal: false, target: height)
        }
        return current
    }

    /// The kernel at `x`.
    static func kernel(_ x: Double) -> Double {
        let distance = abs(x)
        if distance < 1e-9 { return 1 }
        if distance >= lobes { return 0 }
        let pix = Double.pi * distance
        return lobes * sin(pix) * sin(pix / lobes) / (pix * pix)
    }

    /// The weights of one axis: for output `i`, source pixels `starts[i] ..< starts[i] + counts[i]`
    /// with `weights[i * stride ..< i * stride + counts[i]]` (normalised to sum 1).
    struct Taps {
        var starts: [Int]
        var counts: [Int]
        var weights: [Float]
        var stride: Int

        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            let filterScale = max(scale, 1)
            let support = LanczosResampler.lobes * filterScale
            stride = Int((support * 2).rounded(.up)) + 2
            starts = []
            counts = []
            weights = [Float](repeating: 0, count: stride * target)
            for index in 0..<target {
                let center = (Double(index) + 0.5) * scale
                let low = max(0, Int((center - support).rounded(.down)))
                let high = min(source, Int((center + support).rounded(.up)))
                var taps: [Double] = []
                var total = 0.0
                for position in low..<max(high, low + 1) where position < source {
                    let weight = LanczosResampler.kernel((Double(position) + 0.5 - center) / filterScale)
                    taps.append(weight)
                    total += weight
                }
                if taps.count > stride { taps.removeLast(taps.count - stride) }
                if total == 0 { total = 1 }
                for (offset, weight) in taps.enumerated() {
                    weights[index * stride + offset] = Float(weight / total)
                }
                starts.append(low)
                counts.append(taps.count)
            }
        }
    }

    /// One axis resized: rows (`horizontal`) or columns to `target` pixels.
    private static func pass(_ image: RGBImage, horizontal: Bool, target: Int) -> RGBImage {
        let sourceLength = horizontal ? image.width : image.height
        let taps = Taps(source: sourceLength, target: target)
        let outWidth = horizontal ? target : image.width
        let outHeight = horizontal ? image.height : target
        // Step between neighbouring source pixels along the axis, and between lines, in bytes.
        let step = horizontal ? 3 : image.width * 3
        let lines = horizontal ? image.height : image.width
        let lineStep = horizontal ? image.width * 3 : 3
        let outStep = horizontal ? 3 : outWidth * 3
        let outLineStep = horizontal ? outWidth * 3 : 3
        let pixels = image.pixels.withUnsafeBufferPointer { source in
            taps.weights.withUnsafeBufferPointer { weights in
                [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 3) { out, initialized in
                    for line in 0..<lines {
                        let lineBase = line * lineStep
                        let outBase = line * outLineStep
                        for index in 0..<target {
                            let start = taps.starts[index]
                            let count = taps.counts[index]
                            let weightBase = index * taps.stride
                            var red: Float = 0
                            var green: Float = 0
                            var blue: Float = 0
                            var at = lineBase + start * step
                            for tap in 0..<count {
                                let weight = weights[weightBase + tap]
                                red += weight * Float(source[at])
                                green += weight * Float(source[at + 1])
                                blue += weight * Float(source[at + 2])
                                at += step
                            }
                            let to = outBase + index * outStep
                            out[to] = clamp(red)
                            out[to + 1] = clamp(green)
                            out[to + 2] = clamp(blue)
                        }
                    }
                    initialized = outWidth * outHeight * 3
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// `value` rounded to the nearest byte, clamped to 0...255.
    @inline(__always)
    private static func clamp(_ value: Float) -> UInt8 {
        let rounded = (value + 0.5).rounded(.down)
        if rounded <= 0 { return 0 }
        if rounded >= 255 { return 255 }
        return UInt8(rounded)
    }
}
