/// Folds streamed chunks into the whole reply: text and thoughts concatenated, the last
/// non-nil usage (counts are running totals; the last chunk may carry only usage), the finish
/// reason and message of the chunk that had them.
public struct GeminiStreamAccumulator: Sendable, Hashable {
    /// The answer text so far (thought parts excluded).
    public private(set) var text = ""
    /// The thought text so far.
    public private(set) var thoughtText = ""
    /// The last non-nil usage.
    public private(set) var usage: UsageMetadata?
    /// The finish reason, once a chunk carried one.
    public private(set) var finishReason: FinishReason?
    /// The finish message, once a chunk carried one.
    public private(set) var finishMessage: String?
    /// The last model version seen.
    public private(set) var modelVersion: String?
    /// Chunks added.
    public private(set) var chunkCount = 0

    /// Creates an empty accumulator.
    public init() {}

    /// Adds the next chunk.
    public mutating func add(_ chunk: GenerateContentResponse) {
        chunkCount += 1
        text += chunk.text
        thoughtText += chunk.thoughtText
        if let chunkUsage = chunk.usageMetadata { usage = chunkUsage }
        if let version = chunk.modelVersion { modelVersion = version }
        if let candidate = chunk.candidates?.first {
            if let reason = candidate.finishReason { finishReason = reason }
            if let message = candidate.finishMessage { finishMessage = message }
        }
    }
}
