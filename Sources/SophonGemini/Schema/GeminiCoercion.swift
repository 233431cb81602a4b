import SophonCore

/// One change lenient reading made to a value so it fits its schema or type: where, what was
/// there, and what it became (docs/library.md, "What a result lists").
///
/// ``description`` is the line ``GeminiResult/coercions`` lists for it:
/// `$.year: string "2021" read as number 2021`.
public struct GeminiCoercion: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value (`$.year`, `$.tags[0]`).
    public let path: String
    /// The value as the model wrote it.
    public let from: JSONValue
    /// What it was read as; `nil` when the member was removed (a null word in an optional
    /// field that is not nullable).
    public let to: JSONValue?
    /// What happened, without the path: `string "2021" read as number 2021`.
    public let note: String

    /// Creates a coercion record.
    public init(path: String, from: JSONValue, to: JSONValue?, note: String) {
        self.path = path
        self.from = from
        self.to = to
        self.note = note
    }

    /// The record of a lenient decoder's coercion (SophonCore's `JSONCoercion`).
    public init(_ coercion: JSONCoercion) {
        let text = coercion.description
        let prefix = coercion.path + ": "
        self.init(
            path: coercion.path, from: coercion.from, to: coercion.to,
            note: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
    }

    /// `PATH: NOTE`, as listed in ``GeminiResult/coercions``.
    public var description: String { "\(path): \(note)" }
}
