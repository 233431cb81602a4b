/// Something found in or done to a schema or a value, with where it was: a value failing its
/// schema (``GeminiSchema/validate(_:)``), a value changed to fit it (coercion), a schema the
/// API would reject (``GeminiSchema/apiProblems()``), or a JSON Schema keyword the converter
/// changed or left out (``GeminiSchemaDocument/notes``).
public struct GeminiSchemaIssue: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path: `$`, `$.year`, `$.tags[1]`, `$["odd key"]`, `$.properties.author`.
    public let path: String
    /// What is wrong or was done: `expected integer, got string "2016"`,
    /// `dropped "additionalProperties" (not accepted by the Gemini API)`.
    public let message: String

    /// Creates an issue.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`, the line `validate` prints: `$.year: expected integer, got string "2016"`.
    public var description: String { "\(path): \(message)" }
}
