#if canImport(CImageCodecs)
    import CImageCodecs
    import Foundation

    /// JPEG through libjpeg-turbo's TurboJPEG API (docs/media.md). Decoding reads the header
    /// first and refuses more pixels than the limit before any pixel buffer exists; a TurboJPEG
    /// warning (a truncated or slightly damaged file) still yields the pixels it decoded; CMYK
    /// and YCCK files (Adobe's inverted CMYK) are converted to RGB as `C * K / 255`.
    enum JPEGCodec {
        /// Decodes `bytes`, possibly scaled down in the DCT domain to the smallest of 1/2, 1/4,
        /// 1/8 that keeps the longest side at least `minimumLongestSide` (0: full size).
        /// - Throws: ``MediaImageError/tooManyPixels(width:height:limit:)`` from the header,
        ///   ``MediaImageError/corrupt(format:message:)`` when TurboJPEG fails.
        static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maxPixels: Int, minimumLongestSide: Int)
            throws -> DecodedImage
        {
            guard let base = bytes.baseAddress, let handle = tjInitDecompress() else {
                throw MediaImageError.corrupt(format: "JPEG", message: "empty input")
            }
            defer { tjDestroy(handle) }
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard
                tjDecompressHeader3(
                    handle, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
            else { throw MediaImageError.corrupt(format: "JPEG", message: message(handle)) }
            guard width > 0, height > 0 else {
                throw MediaImageError.corrupt(format: "JPEG", message: "empty image")
            }
            guard Int(width) * Int(height) <= maxPixels else {
                throw MediaImageError.tooManyPixels(width: Int(width), height: Int(height), limit: maxPixels)
            }
            var denominator: Int32 = 1
            for candidate: Int32 in [8, 4, 2] where minimumLongestSide > 0 {
                let longest = max(
                    sophon_tj_scaled(width, 1, candidate), sophon_tj_scaled(height, 1, candidate))
                if longest >= minimumLongestSide {
                    denominator = candidate
                    break
                }
            }
            let outWidth = Int(sophon_tj_scaled(width, 1, denominator))
            let outHeight = Int(sophon_tj_scaled(height, 1, denominator))
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let channels = cmyk ? 4 : 3
            let format = cmyk ? TJPF_CMYK : TJPF_RGB
            var raw = [UInt8](repeating: 0, count: outWidth * outHeight * channels)
            let status = raw.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle, base, UInt(bytes.count), out.baseAddress, Int32(outWidth), 0, Int32(outHeight),
                    Int32(format.rawValue), TJFLAG_LIMITSCANS)
            }
            if status != 0, tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
                throw MediaImageError.corrupt(format: "JPEG", message: message(handle))
            }
            let orientation = EXIFOrientationReader.orientation(ofJPEG: bytes)
            let pixels = cmyk ? rgb(fromInvertedCMYK: raw) : raw
            return DecodedImage(
                image: RGBImage(width: outWidth, height: outHeight, pixels: pixels), width: Int(width),
                height: Int(height), orientation: orientation)
        }

        /// `image` as a baseline JPEG, 4:2:0, at `quality` (1...100).
        /// - Throws: ``MediaImageError/encodeFailed(message:)``.
        static func encode(_ image: RGBImage, quality: Int) throws -> Data {
            guard let handle = tjInitCompress() else {
                throw MediaImageError.encodeFailed(message: "TurboJPEG did not start")
            }
            defer { tjDestroy(handle) }
            var output: UnsafeMutablePointer<UInt8>? = nil
            var size: UInt = 0
            let status = image.pixels.withUnsafeBufferPointer { pixels in
                tjCompress2(
                    handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height),
                    Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
            }
            defer { if let output { tjFree(output) } }
            guard status == 0, let output else {
                throw MediaImageError.encodeFailed(message: message(handle))
            }
            return Data(bytes: output, count: Int(size))
        }

        /// TurboJPEG's last message for `handle`.
        private static func message(_ handle: tjhandle) -> String {
            guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
            return String(cString: text)
        }

        /// RGB from Adobe-style inverted CMYK (what libjpeg-turbo hands back for CMYK and YCCK
        /// files): `R = C * K / 255`, and likewise for G from M and B from Y, rounded.
        private static func rgb(fromInvertedCMYK cmyk: [UInt8]) -> [UInt8] {
            let count = cmyk.count / 4
            return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
                for index in 0..<count {
                    let black = UInt32(cmyk[index * 4 + 3])
                    for channel in 0..<3 {
                        out[index * 3 + channel] = UInt8(
                            (UInt32(cmyk[index * 4 + channel]) * black + 127) / 255)
                    }
                }
                initialized = count * 3
            }
        }
    }
#endif
