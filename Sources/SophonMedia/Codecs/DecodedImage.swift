/// What a decoder gives: the pixels as stored (not yet turned upright), the size its header
/// gave, and the EXIF orientation.
public struct DecodedImage: Sendable, Hashable {
    /// The pixels, alpha flattened onto white. A JPEG may be decoded smaller than its header
    /// size (by 1/2, 1/4 or 1/8 in the DCT domain) when the caller only needs a smaller image.
    public var image: RGBImage
    /// Width from the header, in pixels (as stored).
    public var width: Int
    /// Height from the header, in pixels (as stored).
    public var height: Int
    /// How to turn the stored pixels upright (``ImageOrientation/up`` when none is recorded).
    public var orientation: ImageOrientation
}
