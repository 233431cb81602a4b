#if canImport(CImageCodecs)
    import CImageCodecs
    import Foundation

    /// PNG through libpng's simplified `png_image` API, wrapped in Sources/CImageCodecs/shim.h
    /// (libpng's classic API reports errors by longjmp, which Swift cannot take part in). The
    /// header is read and the pixel limit checked before the pixel buffer is allocated; the
    /// pixels come as 8-bit sRGB RGBA and are flattened onto white.
    enum PNGCodec {
        /// Decodes `bytes`.
        /// - Throws: ``MediaImageError/tooManyPixels(width:height:limit:)`` from the header,
        ///   ``MediaImageError/corrupt(format:message:)`` when libpng fails.
        static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maxPixels: Int) throws -> DecodedImage {
            guard let base = bytes.baseAddress else {
                throw MediaImageError.corrupt(format: "PNG", message: "empty input")
            }
            var image = png_image()
            guard sophon_png_begin_read(&image, base, bytes.count) != 0 else {
                throw MediaImageError.corrupt(format: "PNG", message: message(image))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            guard width > 0, height > 0, width * height <= maxPixels else {
                sophon_png_abandon(&image)
                throw MediaImageError.tooManyPixels(width: width, height: height, limit: maxPixels)
            }
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            let size = sophon_png_rgba_size(&image)
            let ok = rgba.withUnsafeMutableBytes { out in
                sophon_png_finish_read_rgba(&image, out.baseAddress, min(size, out.count))
            }
            guard ok != 0 else { throw MediaImageError.corrupt(format: "PNG", message: message(image)) }
            let flat = rgba.withUnsafeBufferPointer {
                RGBImage.flattening(rgba: $0, width: width, height: height)
            }
            return DecodedImage(image: flat, width: width, height: height, orientation: .up)
        }

        /// 8-bit RGBA `rgba` (`width * height * 4` bytes, not premultiplied) as a PNG file.
        /// - Throws: ``MediaImageError/encodeFailed(message:)``.
        static func encode(rgba: [UInt8], width: Int, height: Int) throws -> Data {
            guard rgba.count == width * height * 4, width > 0, height > 0 else {
                throw MediaImageError.encodeFailed(message: "RGBA buffer does not match \(width)x\(height)")
            }
            var size = 0
            let measured = rgba.withUnsafeBytes {
                sophon_png_write_rgba($0.baseAddress, UInt32(width), UInt32(height), nil, &size)
            }
            guard measured != 0, size > 0 else {
                throw MediaImageError.encodeFailed(message: "libpng failed")
            }
            var output = [UInt8](repeating: 0, count: size)
            let written = rgba.withUnsafeBytes { pixels in
                output.withUnsafeMutableBytes { out in
                    sophon_png_write_rgba(
                        pixels.baseAddress, UInt32(width), UInt32(height), out.baseAddress, &size)
                }
            }
            guard written != 0 else { throw MediaImageError.encodeFailed(message: "libpng failed") }
            return Data(output.prefix(size))
        }

        /// libpng's message in `image`.
        private static func message(_ image: png_image) -> String {
            var copy = image.message
            return withUnsafeBytes(of: &copy) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }
#endif
