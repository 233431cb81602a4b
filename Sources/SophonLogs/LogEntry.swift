import Foundation

/// One logged Gemini exchange (docs/logs.md): what was asked, how, and what came back.
/// Never holds a key: the caller logs the prompt and settings, not the request headers or URL.
public struct LogEntry: Sendable, Equatable {
    /// The row ID, assigned by the store; `nil` before ``LogStore/append(_:)``.
    public var id: Int64?
    /// When the exchange started.
    public var time: Date
    /// The command that made it: `ask`, `chat`, `run`.
    public var command: String
    /// The chat conversation it belongs to; `nil` for a lone `ask`.
    public var conversationID: String?
    /// The model that answered (or was asked, when the call failed).
    public var model: String
    /// The prompt text.
    public var prompt: String
    /// The system instruction, if any.
    public var systemInstruction: String?
    /// The response schema as JSON text, if one was in force.
    public var schema: String?
    /// The generation settings as JSON text (`temperature`, `maxTokens`, `thinking`, `stream`).
    public var settings: String?
    /// The answer: text, or JSON text for a structured call; `nil` when the call failed.
    public var answer: String?
    /// Prompt tokens (`usageMetadata.promptTokenCount`).
    public var promptTokens: Int
    /// Output tokens (`usageMetadata.candidatesTokenCount`).
    public var outputTokens: Int
    /// Thinking tokens (`usageMetadata.thoughtsTokenCount`).
    public var thoughtsTokens: Int
    /// Total tokens (`usageMetadata.totalTokenCount`).
    public var totalTokens: Int
    /// Wall time of the call, in milliseconds.
    public var durationMilliseconds: Int
    /// The error message when the call failed.
    public var error: String?
    /// Attached media as JSON text: `[{"mimeType":…,"sha256":…,"bytes":…}]`; never the bytes.
    public var media: String?
    /// The user and model turns of the exchange as Gemini `Content` JSON (thought signatures
    /// kept, media replaced by their hash), for `chat --continue`.
    public var turns: String?
    /// What the exchange cost in US dollars (docs/cost.md); `nil` when unknown (a model without
    /// a price, an exchange logged before costs were).
    public var cost: Double?

    /// An entry; every optional member defaults to absent and every count to zero.
    public init(
        id: Int64? = nil, time: Date, command: String, conversationID: String? = nil, model: String,
        prompt: String, systemInstruction: String? = nil, schema: String? = nil, settings: String? = nil,
        answer: String? = nil, promptTokens: Int = 0, outputTokens: Int = 0, thoughtsTokens: Int = 0,
        totalTokens: Int = 0, durationMilliseconds: Int = 0, error: String? = nil, media: String? = nil,
        turns: String? = nil
    ) {
        self.id = id
        self.time = time
        self.command = command
        self.conversationID = conversationID
        self.model = model
        self.prompt = prompt
        self.systemInstruction = systemInstruction
        self.schema = schema
        self.settings = settings
        self.answer = answer
        self.promptTokens = promptTokens
        self.outputTokens = outputTokens
        self.thoughtsTokens = thoughtsTokens
        self.totalTokens = totalTokens
        self.durationMilliseconds = durationMilliseconds
        self.error = error
        self.media = media
        self.turns = turns
    }
}
