/// What ``GeminiAPIClient/generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``
/// returns: the final answer, and what the loop did to get it.
public struct GeminiToolRun: Sendable {
    /// The final answer text (thought parts excluded).
    public var text: String
    /// The last reply.
    public var response: GenerateContentResponse
    /// Token counts summed over every round (absent counts count as zero).
    public var usage: UsageMetadata
    /// Model requests made (one per round).
    public var rounds: Int
    /// Every function call the model made, in order.
    public var calls: [FunctionCall]
    /// The last round's result: the model that answered, its usage, retries and fallback.
    public var lastResult: GeminiResult<GenerateContentResponse>
}
