/// Why SophonMedia could not decode or encode an image.
public enum MediaImageError: Error, Sendable, Hashable {
    /// The bytes are not JPEG, PNG or WebP (by their magic bytes).
    case unsupportedFormat
    /// The header claims more pixels than the limit (checked before any pixel buffer is
    /// allocated): width and height from the header, and the limit in pixels.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The codec refused the bytes: the format and the codec's message.
    case corrupt(format: String, message: String)
    /// The encoder failed: its message.
    case encodeFailed(message: String)
    /// No codec is available on this platform.
    case unavailable
}
