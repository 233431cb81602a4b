import SophonCore

/// The `usage` of an Interaction (gemini-wire-format-3.md §1.9, pg `usage.py`): token counts
/// for the whole interaction. Absent counts are `nil`.
public struct GeminiInteractionUsage: Sendable, Hashable {
    /// `total_input_tokens`.
    public var inputTokens: Int?
    /// `total_output_tokens`.
    public var outputTokens: Int?
    /// `total_thought_tokens`.
    public var thoughtTokens: Int?
    /// `total_cached_tokens`.
    public var cachedTokens: Int?
    /// `total_tool_use_tokens`.
    public var toolUseTokens: Int?
    /// `total_tokens`.
    public var totalTokens: Int?

    /// Creates usage counts.
    public init(
        inputTokens: Int? = nil, outputTokens: Int? = nil, thoughtTokens: Int? = nil,
        cachedTokens: Int? = nil,
        toolUseTokens: Int? = nil, totalTokens: Int? = nil
    ) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.thoughtTokens = thoughtTokens
        self.cachedTokens = cachedTokens
        self.toolUseTokens = toolUseTokens
        self.totalTokens = totalTokens
    }

    /// The counts of a `usage` object (numbers that are not integers are left out).
    public init(json: JSONValue) {
        func count(_ key: String) -> Int? { json[key]?.doubleValue.flatMap { Int(exactly: $0) } }
        self.init(
            inputTokens: count("total_input_tokens"), outputTokens: count("total_output_tokens"),
            thoughtTokens: count("total_thought_tokens"), cachedTokens: count("total_cached_tokens"),
            toolUseTokens: count("total_tool_use_tokens"), totalTokens: count("total_tokens"))
    }

    /// The same counts under generateContent's names (`promptTokenCount` = input,
    /// `candidatesTokenCount` = output, `thoughtsTokenCount`, `cachedContentTokenCount`,
    /// `toolUsePromptTokenCount`, `totalTokenCount`), so totals add up across both APIs.
    public var metadata: UsageMetadata {
        var usage = UsageMetadata(
            promptTokenCount: inputTokens, candidatesTokenCount: outputTokens,
            thoughtsTokenCount: thoughtTokens,
            totalTokenCount: totalTokens)
        usage.cachedContentTokenCount = cachedTokens
        usage.toolUsePromptTokenCount = toolUseTokens
        return usage
    }
}
