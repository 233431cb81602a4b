#if canImport(ImageIO) && !canImport(CImageCodecs)
    import CoreGraphics
    import Foundation
    import ImageIO
    import UniformTypeIdentifiers

    /// The Apple-platform path of ``MediaImageCodec/reencode(_:longestSide:quality:maxPixels:)``:
    /// ImageIO reads the size from the header (the pixel limit is checked before decoding),
    /// makes a thumbnail with the EXIF orientation applied and its longest side at most
    /// `longestSide` (never upscaled), Core Graphics draws it onto white, and ImageIO writes it
    /// as JPEG.
    enum ImageIOReencoder {
        /// See ``MediaImageCodec/reencode(_:longestSide:quality:maxPixels:)``.
        static func reencode(_ data: Data, longestSide: Int, quality: Int, maxPixels: Int) throws -> Data {
            guard let source = CGImageSourceCreateWithData(data as CFData, nil),
                let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
                let width = properties[kCGImagePropertyPixelWidth] as? Int,
                let height = properties[kCGImagePropertyPixelHeight] as? Int
            else { throw MediaImageError.unsupportedFormat }
            guard width > 0, height > 0, width * height <= maxPixels else {
                throw MediaImageError.tooManyPixels(width: width, height: height, limit: maxPixels)
            }
            let options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: min(longestSide, max(width, height)),
                kCGImageSourceShouldCacheImmediately: true,
            ]
            guard let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary)
            else {
                throw MediaImageError.corrupt(format: "image", message: "ImageIO could not decode it")
            }
            let space = CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB()
            guard
                let context = CGContext(
                    data: nil, width: thumbnail.width, height: thumbnail.height, bitsPerComponent: 8,
                    bytesPerRow: 0, space: space, bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
            else { throw MediaImageError.encodeFailed(message: "no drawing context") }
            let rect = CGRect(x: 0, y: 0, width: thumbnail.width, height: thumbnail.height)
            context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            context.fill(rect)
            context.interpolationQuality = .high
            context.draw(thumbnail, in: rect)
            guard let flat = context.makeImage() else {
                throw MediaImageError.encodeFailed(message: "no image from the drawing context")
            }
            let output = NSMutableData()
            guard
                let destination = CGImageDestinationCreateWithData(
                    output as CFMutableData, UTType.jpeg.identifier as CFString, 1, nil)
            else { throw MediaImageError.encodeFailed(message: "no JPEG destination") }
            CGImageDestinationAddImage(
                destination, flat,
                [kCGImageDestinationLossyCompressionQuality: Double(quality) / 100] as CFDictionary)
            guard CGImageDestinationFinalize(destination) else {
                throw MediaImageError.encodeFailed(message: "ImageIO could not write the JPEG")
            }
            return output as Data
        }
    }
#endif
