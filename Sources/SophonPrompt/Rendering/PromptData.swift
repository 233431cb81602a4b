import SophonCore

/// The data argument of a render (Dotprompt's `DataArgument`): an object with `input` (the
/// template's values), `context` (its members are `@` variables), `messages` (the history) and
/// `docs`, each optional. ``PromptRenderer`` reads only these members, so anything else would be
/// silently ignored: ``check(_:file:location:)`` refuses it first.
public enum PromptData {
    /// The members a data argument may have, in Dotprompt's order.
    public static let members = ["input", "context", "messages", "docs"]

    /// Checks that `value` has the data argument's shape.
    /// - Parameters:
    ///   - value: the data.
    ///   - file: what errors name (`--data`, or the file it was read from).
    ///   - location: where the value starts in that text.
    /// - Throws: ``PromptError`` (`.data`) at `location`: `expected a JSON object {"input",
    ///   "context", "messages", "docs"}, got an array`, `$: unknown member 'name' ...`,
    ///   `$.context: expected an object, got an array`, `$.messages[0].content: expected an array
    ///   of parts, got a string`.
    public static func check(_ value: JSONValue, file: String, location: PromptLocation) throws(PromptError) {
        func fail(_ message: String) -> PromptError {
            PromptError(.data, message, file: file, line: location.line, column: location.column)
        }
        let shape = "{" + members.map { "\"\($0)\"" }.joined(separator: ", ") + "}"
        guard case .object(let fields) = value else {
            throw fail("expected a JSON object \(shape), got \(described(value))")
        }
        for field in fields {
            let path = "$.\(field.key)"
            switch (field.key, field.value) {
            case (_, .null): continue
            case ("input", .object), ("context", .object), ("docs", .array): continue
            case ("input", let other), ("context", let other):
                throw fail("\(path): expected an object, got \(described(other))")
            case ("docs", let other):
                throw fail("\(path): expected an array, got \(described(other))")
            case ("messages", .array(let messages)):
                for (index, message) in messages.enumerated() {
                    let at = "\(path)[\(index)]"
                    guard case .object = message else {
                        throw fail(
                            "\(at): expected a message {\"role\", \"content\"}, got \(described(message))")
                    }
                    guard case .string = message["role"] ?? .null else {
                        throw fail(
                            "\(at).role: expected a string, got \(described(message["role"] ?? .null))")
                    }
                    guard case .array = message["content"] ?? .null else {
                        throw fail(
                            "\(at).content: expected an array of parts, got \(described(message["content"] ?? .null))"
                        )
                    }
                }
            case ("messages", let other):
                throw fail("\(path): expected an array of messages, got \(described(other))")
            default:
                throw fail(
                    "unknown member '\(field.key)': the data is \(shape), and the template's values go in \"input\""
                )
            }
        }
    }

    /// `an array`, `a string`, `null`, ... for messages.
    public static func described(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
