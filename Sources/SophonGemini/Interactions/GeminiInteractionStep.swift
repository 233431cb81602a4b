import SophonCore

/// One step of an Interaction's timeline (docs/interactions.md): a user input, a model
/// output, a thought, a function call or result, a built-in tool call or result. Kept as the
/// JSON object it is on the wire, so a step goes back exactly as received (thought signatures
/// included: the stateless mode must re-send them verbatim); ``kind`` reads it typed.
public struct GeminiInteractionStep: Sendable, Hashable {
    /// The step as sent or received.
    public var json: JSONValue

    /// A step from its JSON object.
    public init(json: JSONValue) { self.json = json }

    /// A step, typed.
    public enum Kind: Sendable, Hashable {
        /// `user_input`: the user's content.
        case userInput([GeminiInteractionContent])
        /// `model_output`: the model's content.
        case modelOutput([GeminiInteractionContent])
        /// `thought`: its signature and the summary texts (often none).
        case thought(signature: String?, summary: [String])
        /// `function_call`: `id`, `name`, `arguments` (as ``FunctionCall/args``).
        case functionCall(FunctionCall)
        /// `function_result`: the call it answers, the function's name, the result, and
        /// whether it is an error.
        case functionResult(callID: String, name: String?, result: JSONValue, isError: Bool)
        /// A built-in tool's call (`google_search_call`, `code_execution_call`, ...): the step
        /// type, its `id` and `arguments`.
        case toolCall(type: String, id: String?, arguments: JSONValue?)
        /// A built-in tool's result (`google_search_result`, ...): the step type, its `call_id`
        /// and `result`.
        case toolResult(type: String, callID: String?, result: JSONValue?)
        /// A step type this client does not know.
        case other(type: String)
    }

    /// `type`.
    public var type: String { json["type"]?.stringValue ?? "" }

    /// The step, typed.
    public var kind: Kind {
        func contents() -> [GeminiInteractionContent] {
            guard case .array(let items)? = json["content"] else { return [] }
            return items.map(GeminiInteractionContent.init(json:))
        }
        switch type {
        case "user_input": return .userInput(contents())
        case "model_output": return .modelOutput(contents())
        case "thought":
            let summary: [String]
            if case .array(let items)? = json["summary"] {
                summary = items.compactMap { $0["text"]?.stringValue }
            } else {
                summary = []
            }
            return .thought(signature: json["signature"]?.stringValue, summary: summary)
        case "function_call":
            return .functionCall(
                FunctionCall(
                    id: json["id"]?.stringValue, name: json["name"]?.stringValue ?? "",
                    args: json["arguments"] ?? .object([])))
        case "function_result":
            return .functionResult(
                callID: json["call_id"]?.stringValue ?? "", name: json["name"]?.stringValue,
                result: json["result"] ?? .null, isError: json["is_error"] == .bool(true))
        case let type where type.hasSuffix("_call"):
            return .toolCall(type: type, id: json["id"]?.stringValue, arguments: json["arguments"])
        case let type where type.hasSuffix("_result"):
            return .toolResult(type: type, callID: json["call_id"]?.stringValue, result: json["result"])
        default:
            return .other(type: type)
        }
    }

    /// The text of the step's `text` blocks (a `user_input` or `model_output`), joined; `""`
    /// for other steps.
    public var text: String {
        switch kind {
        case .userInput(let content), .modelOutput(let content): content.compactMap(\.text).joined()
        default: ""
        }
    }

    /// `{"type": "user_input", "content": CONTENT}`.
    public static func userInput(_ content: [GeminiInteractionContent]) -> GeminiInteractionStep {
        GeminiInteractionStep(
            json: .object([
                JSONMember("type", .string("user_input")), JSONMember("content", .array(content.map(\.json))),
            ]))
    }

    /// `{"type": "function_result", "call_id", "name", "result", "is_error"?}`: the answer to
    /// one function call (`is_error` only when true).
    public static func functionResult(callID: String, name: String, result: JSONValue, isError: Bool = false)
        -> GeminiInteractionStep
    {
        var members = [
            JSONMember("type", .string("function_result")), JSONMember("call_id", .string(callID)),
            JSONMember("name", .string(name)), JSONMember("result", result),
        ]
        if isError { members.append(JSONMember("is_error", .bool(true))) }
        return GeminiInteractionStep(json: .object(members))
    }
}
