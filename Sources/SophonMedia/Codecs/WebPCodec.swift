#if canImport(CImageCodecs)
    import CImageCodecs

    /// WebP (lossy, lossless, with alpha; the first frame's decoder refuses animations) through
    /// libwebp. `WebPGetInfo` reads the size from the header, the pixel limit is checked, and
    /// only then is the RGBA buffer allocated and decoded into.
    enum WebPCodec {
        /// Decodes `bytes`.
        /// - Throws: ``MediaImageError/tooManyPixels(width:height:limit:)`` from the header,
        ///   ``MediaImageError/corrupt(format:message:)`` when libwebp fails.
        static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maxPixels: Int) throws -> DecodedImage {
            guard let base = bytes.baseAddress else {
                throw MediaImageError.corrupt(format: "WebP", message: "empty input")
            }
            var width: Int32 = 0
            var height: Int32 = 0
            guard WebPGetInfo(base, bytes.count, &width, &height) != 0, width > 0, height > 0 else {
                throw MediaImageError.corrupt(format: "WebP", message: "unreadable header")
            }
            guard Int(width) * Int(height) <= maxPixels else {
                throw MediaImageError.tooManyPixels(width: Int(width), height: Int(height), limit: maxPixels)
            }
            let count = Int(width) * Int(height) * 4
            var rgba = [UInt8](repeating: 0, count: count)
            let decoded = rgba.withUnsafeMutableBufferPointer { out in
                WebPDecodeRGBAInto(base, bytes.count, out.baseAddress, count, width * 4)
            }
            guard decoded != nil else {
                throw MediaImageError.corrupt(format: "WebP", message: "decoding failed")
            }
            let flat = rgba.withUnsafeBufferPointer {
                RGBImage.flattening(rgba: $0, width: Int(width), height: Int(height))
            }
            return DecodedImage(image: flat, width: Int(width), height: Int(height), orientation: .up)
        }
    }
#endif
