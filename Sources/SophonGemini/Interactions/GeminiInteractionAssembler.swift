import SophonCore

/// Folds the events of a streamed Interaction into the Interaction they describe
/// (docs/interactions.md): each `step.start` opens the step at its index, `step.delta`s
/// add text, thought summaries, the signature, annotations or argument fragments (joined and
/// parsed at `step.stop`), and `interaction.completed` brings the status and usage (its steps,
/// usually none, are used only when no step arrived).
public struct GeminiInteractionAssembler: Sendable, Hashable {
    /// The interaction's id, once `interaction.created` named it.
    public private(set) var id: String?
    /// The latest status.
    public private(set) var status: GeminiInteractionStatus?
    /// The model, when the stream named it.
    public private(set) var model: String?
    /// The agent, when the stream named it.
    public private(set) var agent: String?
    /// The usage of `interaction.completed`.
    public private(set) var usage: GeminiInteractionUsage?
    /// The `event_id` of the last event added.
    public private(set) var lastEventID: String?
    /// Whether `interaction.completed` arrived.
    public private(set) var isComplete = false
    /// The answer text so far (every `model_output` text).
    public private(set) var text = ""
    /// The steps so far, by index.
    private var stepsByIndex: [Int: JSONValue] = [:]
    /// Function-call argument fragments per step index.
    private var argumentText: [Int: String] = [:]
    /// `interaction.completed`'s object.
    private var completed: JSONValue?

    /// An empty assembler.
    public init() {}

    /// The steps so far, in index order.
    public var steps: [GeminiInteractionStep] {
        stepsByIndex.keys.sorted().compactMap { stepsByIndex[$0].map(GeminiInteractionStep.init(json:)) }
    }

    /// Adds the next event.
    public mutating func add(_ event: GeminiInteractionEvent) {
        if let eventID = event.eventID { lastEventID = eventID }
        if let delta = event.textDelta { text += delta }
        switch event.type {
        case "interaction.created", "interaction.completed":
            let object = event.json["interaction"] ?? .object([])
            if let value = object["id"]?.stringValue { id = value }
            if let value = object["status"]?.stringValue { status = GeminiInteractionStatus(rawValue: value) }
            if let value = object["model"]?.stringValue { model = value }
            if let value = object["agent"]?.stringValue { agent = value }
            if let value = object["usage"] { usage = GeminiInteractionUsage(json: value) }
            if event.type == "interaction.completed" {
                isComplete = true
                completed = object
            }
        case "interaction.status_update":
            if let value = event.json["status"]?.stringValue {
                status = GeminiInteractionStatus(rawValue: value)
            }
        case "step.start":
            if let index = event.index { stepsByIndex[index] = event.json["step"] ?? .object([]) }
        case "step.delta":
            guard let index = event.index, let delta = event.json["delta"] else { return }
            apply(delta, to: index)
        case "step.stop":
            guard let index = event.index, let fragments = argumentText.removeValue(forKey: index) else {
                return
            }
            let arguments = (try? JSONValue(parsing: fragments)) ?? .string(fragments)
            stepsByIndex[index] = Self.setting("arguments", arguments, in: stepsByIndex[index] ?? .object([]))
        default:
            break
        }
    }

    /// The interaction the events describe so far.
    public var interaction: GeminiInteraction {
        var members = [JSONMember("id", .string(id ?? ""))]
        members.append(JSONMember("status", .string(status?.rawValue ?? "")))
        if let model { members.append(JSONMember("model", .string(model))) }
        if let agent { members.append(JSONMember("agent", .string(agent))) }
        var steps = self.steps.map(\.json)
        if steps.isEmpty, case .array(let sent)? = completed?["steps"] { steps = sent }
        members.append(JSONMember("steps", .array(steps)))
        if let usage = completed?["usage"] { members.append(JSONMember("usage", usage)) }
        if let errors = completed?["errors"] { members.append(JSONMember("errors", errors)) }
        return GeminiInteraction(id: id ?? "", json: .object(members))
    }

    private mutating func apply(_ delta: JSONValue, to index: Int) {
        var step = stepsByIndex[index] ?? .object([])
        switch delta["type"]?.stringValue ?? "" {
        case "text":
            step = Self.appendingText(delta["text"]?.stringValue ?? "", to: step)
        case "thought_summary":
            var summary: [JSONValue] = []
            if case .array(let items)? = step["summary"] { summary = items }
            if let content = delta["content"] { summary.append(content) }
            step = Self.setting("summary", .array(summary), in: step)
        case "thought_signature":
            step = Self.setting("signature", delta["signature"] ?? .string(""), in: step)
        case "arguments_delta":
            argumentText[index, default: ""] += delta["arguments"]?.stringValue ?? ""
        case "text_annotation_delta":
            step = Self.appendingAnnotations(delta["annotations"] ?? .array([]), to: step)
        case "image", "audio", "video", "document":
            var content: [JSONValue] = []
            if case .array(let items)? = step["content"] { content = items }
            content.append(delta)
            step = Self.setting("content", .array(content), in: step)
        default:
            // A built-in tool's call or result: its fields join the step.
            guard case .object(let members) = delta else { break }
            for member in members where member.key != "type" {
                step = Self.setting(member.key, member.value, in: step)
            }
        }
        stepsByIndex[index] = step
    }

    /// `object` with `key` set to `value` (replacing it in place, else appended).
    static func setting(_ key: String, _ value: JSONValue, in object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return .object([JSONMember(key, value)]) }
        if let index = members.lastIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }

    /// `step` with `text` added to its last text block (a new block when it has none).
    private static func appendingText(_ text: String, to step: JSONValue) -> JSONValue {
        var content: [JSONValue] = []
        if case .array(let items)? = step["content"] { content = items }
        if let last = content.indices.last, content[last]["type"]?.stringValue == "text" {
            content[last] = setting(
                "text", .string((content[last]["text"]?.stringValue ?? "") + text), in: content[last])
        } else {
            content.append(GeminiInteractionContent.text(text).json)
        }
        return setting("content", .array(content), in: step)
    }

    /// `step` with `annotations` added to its last text block.
    private static func appendingAnnotations(_ annotations: JSONValue, to step: JSONValue) -> JSONValue {
        guard case .array(var content)? = step["content"], let last = content.indices.last,
            case .array(let added) = annotations
        else { return step }
        var notes: [JSONValue] = []
        if case .array(let items)? = content[last]["annotations"] { notes = items }
        content[last] = setting("annotations", .array(notes + added), in: content[last])
        return setting("content", .array(content), in: step)
    }
}
