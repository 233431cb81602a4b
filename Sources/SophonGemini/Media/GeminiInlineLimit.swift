/// Google's limit on what one request carries inline: 20 MB, counted as 20,000,000 bytes
/// (docs/commands.md, "attach"; docs/library.md, "Configuration").
///
/// The one value behind the client's inline media per request
/// (``GeminiClientConfiguration/maxInlineMediaBytes``, ``GeminiMedia``; media past it is
/// uploaded) and an inline Batch create body (``GeminiBatchInput/defaultInlineLimit``; a larger
/// one goes as a JSON Lines file).
public enum GeminiInlineLimit {
    /// 20 MB: 20,000,000 bytes.
    public static let bytes = 20_000_000
}
