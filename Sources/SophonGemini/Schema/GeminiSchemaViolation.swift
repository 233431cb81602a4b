/// One way a JSON value fails its schema: where, and what is wrong.
public struct GeminiSchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value: `$`, `$.year`, `$.tags[1]`, `$["odd key"]`.
    public let path: String
    /// What is wrong: `expected integer, got string "2016"`.
    public let message: String

    /// Creates a violation.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`, the line `validate` prints: `$.year: expected integer, got string "2016"`.
    public var description: String { "\(path): \(message)" }
}
