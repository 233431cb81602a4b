import SophonCore

/// Small text helpers over ``JSONValue`` used by schema messages.
enum JSONValueText {
    /// `text` as a quoted JSON string literal.
    static func quoted(_ text: String) -> String { JSONValue.string(text).compactText }

    /// `text` quoted for a message about a word the user typed, cut at 40 characters with `…`
    /// (a 10 MB "type name" is named, not echoed).
    static func quotedWord(_ text: String) -> String {
        quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)
    }

    /// A short rendering for messages: `string "2016"`, `number 3`, `boolean true`, `null`,
    /// `array`, `object`. Long strings are cut at 40 characters with `…`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(number.text)"
        case .string(let text):
            return "string " + quoted(TextExcerpt.prefix(text, limit: 40))
        case .array: return "array"
        case .object: return "object"
        }
    }
}
