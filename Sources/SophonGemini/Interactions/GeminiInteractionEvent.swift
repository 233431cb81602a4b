import SophonCore

/// One server-sent event of a streamed Interaction (docs/interactions.md):
/// `interaction.created`, `interaction.status_update`, `step.start`, `step.delta`,
/// `step.stop`, `interaction.completed` or `error`. Kept as its JSON, with typed accessors.
public struct GeminiInteractionEvent: Sendable, Hashable {
    /// The event's data as received.
    public var json: JSONValue

    /// An event from its data.
    public init(json: JSONValue) { self.json = json }

    /// `event_type`.
    public var type: String { json["event_type"]?.stringValue ?? "" }

    /// `event_id`: the token that resumes the stream after this event (`last_event_id`).
    public var eventID: String? { json["event_id"]?.stringValue }

    /// `index`: the step a `step.*` event belongs to.
    public var index: Int? { json["index"]?.doubleValue.flatMap { Int(exactly: $0) } }

    /// The answer text this event adds: the first text of a `model_output` `step.start`, or a
    /// `text` delta; `nil` otherwise.
    public var textDelta: String? {
        switch type {
        case "step.start":
            guard let step = json["step"], step["type"]?.stringValue == "model_output",
                case .array(let blocks)? = step["content"]
            else { return nil }
            let text = blocks.compactMap { $0["text"]?.stringValue }.joined()
            return text.isEmpty ? nil : text
        case "step.delta":
            guard json["delta"]?["type"]?.stringValue == "text" else { return nil }
            return json["delta"]?["text"]?.stringValue
        default:
            return nil
        }
    }

    /// The thought-summary text this event adds (a `thought` `step.start`'s summary or a
    /// `thought_summary` delta); `nil` otherwise.
    public var thoughtDelta: String? {
        switch type {
        case "step.start":
            guard let step = json["step"], step["type"]?.stringValue == "thought",
                case .array(let blocks)? = step["summary"]
            else { return nil }
            let text = blocks.compactMap { $0["text"]?.stringValue }.joined()
            return text.isEmpty ? nil : text
        case "step.delta":
            guard json["delta"]?["type"]?.stringValue == "thought_summary" else { return nil }
            return json["delta"]?["content"]?["text"]?.stringValue
        default:
            return nil
        }
    }

    /// The error of an `error` event.
    public var error: GeminiInteractionError? {
        guard type == "error" else { return nil }
        return GeminiInteractionError(json: json["error"] ?? .object([]))
    }
}
