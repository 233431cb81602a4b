/// Why a JSON document could not be read as a Gemini Schema or converted from JSON Schema.
///
/// Every case carries the JSON path (`$.properties.author.items`) of the offending schema in the
/// document, so a message can point at it.
public enum GeminiSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field has the wrong kind of value (`required` that is not an array of strings).
    case invalidValue(path: String, expected: String)
    /// A key that Gemini Schema does not have (reading Gemini Schema strictly).
    case unknownKeyword(path: String, keyword: String)
    /// A `$ref` that leads back to a schema being expanded: it cannot be inlined.
    case recursiveReference(path: String, reference: String)
    /// A `$ref` that names nothing in the document (or points outside it).
    case unresolvableReference(path: String, reference: String)
    /// A JSON Schema construct with no Gemini Schema equivalent.
    case unsupported(path: String, reason: String)

    /// The JSON path of the problem.
    public var path: String {
        switch self {
        case .invalidValue(let path, _), .unknownKeyword(let path, _),
            .recursiveReference(let path, _), .unresolvableReference(let path, _),
            .unsupported(let path, _):
            path
        }
    }

    /// One line: `PATH: what is wrong`.
    public var description: String {
        switch self {
        case .invalidValue(let path, let expected): "\(path): expected \(expected)"
        case .unknownKeyword(let path, let keyword):
            "\(path): unknown Gemini Schema keyword \(JSONValueText.quoted(keyword))"
        case .recursiveReference(let path, let reference):
            "\(path): recursive reference \(JSONValueText.quoted(reference)) cannot be inlined"
        case .unresolvableReference(let path, let reference):
            "\(path): cannot resolve reference \(JSONValueText.quoted(reference))"
        case .unsupported(let path, let reason): "\(path): \(reason)"
        }
    }
}
