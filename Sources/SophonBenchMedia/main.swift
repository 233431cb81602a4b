// The Swift side of scripts/bench-downscale (docs/benchmarks.md, "Downscale"): not shipped.
//
//   SophonBenchMedia make FILE            writes the 4000 x 3000 test photo (JPEG q95, EXIF 6)
//   SophonBenchMedia downscale FILE N     re-encodes FILE to 1536 px N times; prints one JSON
//                                         line: output size, CPU ms per run, peak RSS
import Foundation
import SophonMedia

/// A 4000 x 3000 photo-like raster: smooth gradients, some speckle, and a few hard edges.
func photo() -> RGBImage {
    let width = 4000
    let height = 3000
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    var seed: UInt32 = 99
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Int(seed >> 28)
            let at = (y * width + x) * 3
            let band = (x / 250 + y / 250) % 2 == 0 ? 40 : 0
            pixels[at] = UInt8(clamping: x * 200 / width + band + noise)
            pixels[at + 1] = UInt8(clamping: y * 200 / height + noise)
            pixels[at + 2] = UInt8(clamping: 120 + band - noise)
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

/// `jpeg` with an APP1 Exif segment saying orientation 6 (big-endian TIFF).
func withOrientation6(_ jpeg: Data) -> Data {
    let tiff: [UInt8] = [
        0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
    ]
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        + jpeg.dropFirst(2)
}

#if os(Linux)
    let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
    let rusageSelf = RUSAGE_SELF
#endif

/// CPU time of this process so far, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
    let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
    return user + system
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "make" where arguments.count == 3:
    let jpeg = try MediaImageCodec.encodeJPEG(photo(), quality: 95)
    try withOrientation6(jpeg).write(to: URL(fileURLWithPath: arguments[2]))
case "downscale" where arguments.count == 4:
    let input = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let runs = max(1, Int(arguments[3]) ?? 1)
    let start = cpuMilliseconds()
    var output = Data()
    for _ in 0..<runs { output = try MediaImageCodec.reencode(input, longestSide: 1536) }
    let perRun = (cpuMilliseconds() - start) / Double(runs)
    var usage = rusage()
    getrusage(rusageSelf, &usage)
    let decoded = try MediaImageCodec.decode(output)
    print(
        #"{"tool": "sophon", "input_bytes": \#(input.count), "output_bytes": \#(output.count), "#
            + #""width": \#(decoded.width), "height": \#(decoded.height), "cpu_ms": \#(Int(perRun.rounded())), "#
            + #""peak_rss_kb": \#(usage.ru_maxrss)}"#)
default:
    FileHandle.standardError.write(Data("usage: SophonBenchMedia make FILE | downscale FILE N\n".utf8))
    exit(2)
}
