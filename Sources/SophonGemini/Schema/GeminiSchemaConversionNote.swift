/// Something the JSON Schema converter changed or left out, with where it was.
public struct GeminiSchemaConversionNote: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the schema in the document: `$`, `$.properties.author`.
    public let path: String
    /// What was done: `dropped "additionalProperties" (not accepted by the Gemini API)`.
    public let message: String

    /// Creates a note.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }
}
