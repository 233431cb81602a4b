import SophonCore
import SophonPrompt

/// Renders prompt text as a file named `t.prompt` would be.
func rendered(
    _ source: String, input: String = "{}", data: String? = nil, options: String = "{}",
    schemas: [String: JSONValue] = [:], partials: [String: String] = [:]
) throws -> JSONValue {
    let document = try PromptDocument(parsing: source, file: "t.prompt")
    let data = try JSONValue(parsing: data ?? #"{"input": \#(input)}"#)
    return try PromptRenderer(schemas: schemas, partials: partials)
        .render(document, data: data, options: try JSONValue(parsing: options))
}

/// The text of the only part of the only message of a render.
func text(_ source: String, input: String = "{}", partials: [String: String] = [:]) throws -> String? {
    try rendered(source, input: input, partials: partials)["messages"]?[0]?["content"]?[0]?["text"]?
        .stringValue
}

/// The error a throwing expression throws, as a ``PromptError``.
func promptError(_ body: () throws -> Void) -> PromptError? {
    do {
        try body()
        return nil
    } catch {
        return error as? PromptError
    }
}
