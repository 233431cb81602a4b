import SophonCore

/// Dotprompt's helpers (`role`, `history`, `media`, `section`, `json`; `ifEquals` and
/// `unlessEquals` are blocks, in ``TemplateRenderer``). The message helpers print markers,
/// `<<<dotprompt:role:NAME>>>` and the like, that ``PromptMessages`` turns into messages and parts,
/// as Dotprompt's own implementations do.
public enum PromptHelpers {
    /// The marker that starts a message of `role`.
    public static func roleMarker(_ role: String) -> String { "<<<dotprompt:role:\(role)>>>" }
    /// The marker where the history messages go.
    public static let historyMarker = "<<<dotprompt:history>>>"

    /// Helpers called without arguments (`{{history}}`), which a bare name must not shadow.
    static func takesNoArguments(_ name: String) -> Bool { name == "history" }

    /// The value of helper `name`, or `nil` when there is no such helper.
    static func call(_ name: String, _ arguments: [JSONValue], hash: [String: JSONValue]) -> JSONValue? {
        switch name {
        case "role": return .string(roleMarker(arguments.first.map(TemplateRenderer.print) ?? "user"))
        case "history": return .string(historyMarker)
        case "section":
            return .string("<<<dotprompt:section \(arguments.first.map(TemplateRenderer.print) ?? "")>>>")
        case "media":
            let url = hash["url"].map(TemplateRenderer.print) ?? ""
            let type = hash["contentType"].map(TemplateRenderer.print).map { " " + $0 } ?? ""
            return .string("<<<dotprompt:media:url \(url)\(type)>>>")
        case "json":
            let indent = hash["indent"]?.doubleValue.map { Int($0) } ?? 0
            return .string(stringify(arguments.first ?? .null, indent: indent))
        default: return nil
        }
    }

    /// `JSON.stringify(value, null, indent)`: compact with no spaces when `indent` is 0, else one
    /// member per line with `": "` between key and value.
    public static func stringify(_ value: JSONValue, indent: Int, level: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent * (level + 1))
        let close = String(repeating: " ", count: indent * level)
        func wrap(_ items: [String], _ open: String, _ end: String) -> String {
            guard !items.isEmpty else { return open + end }
            guard indent > 0 else { return open + items.joined(separator: ",") + end }
            return open + "\n" + items.map { pad + $0 }.joined(separator: ",\n") + "\n" + close + end
        }
        switch value {
        case .array(let elements):
            return wrap(elements.map { stringify($0, indent: indent, level: level + 1) }, "[", "]")
        case .object(let members):
            let separator = indent > 0 ? ": " : ":"
            return wrap(
                members.map {
                    JSONValue.string($0.key).compactText + separator
                        + stringify($0.value, indent: indent, level: level + 1)
                }, "{", "}")
        default: return value.compactText
        }
    }
}
