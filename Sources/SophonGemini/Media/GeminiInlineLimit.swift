/// Google's limit on what one request carries inline: 20 MB, counted as 20,000,000 bytes
/// (PRODUCT.md §3, §7 and §8, which says the number; gemini-wire-format-2.md §3.5 and §4.2).
///
/// The one value behind the client's inline media per request
/// (``GeminiClientConfiguration/maxInlineMediaBytes``, ``GeminiMedia``; media past it is
/// uploaded) and an inline Batch create body (``GeminiBatchInput/defaultInlineLimit``; a larger
/// one goes as a JSON Lines file).
public enum GeminiInlineLimit {
    /// 20 MB: 20,000,000 bytes.
    public static let bytes = 20_000_000
}
