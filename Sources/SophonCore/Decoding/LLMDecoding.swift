import Foundation

/// Lenient readers for single JSON values as LLMs write them.
///
/// Each reader takes an optional ``JSONValue`` (so `LLMDecoding.int(object["n"])` reads a
/// member that may be missing) and returns `nil` rather than a wrong value or a trap:
/// for `nil`, JSON `null`, a null word (``nullWords``), a value of the wrong kind, or a number
/// out of range or not finite. ``LenientJSONDecoder`` applies the same rules to whole
/// `Decodable` types and reports each change.
public enum LLMDecoding {
    /// Strings that mean "no value": ``LenientReading/nullWords`` (the empty string, `null`,
    /// `nil`, `none`, `n/a`, `na`, `-` and `undefined`, compared trimmed and lowercased).
    ///
    /// Every reader returns `nil` for them. `"0"`, `"false"` and `"unknown"` are not null
    /// words: they carry a value.
    public static var nullWords: Set<String> { LenientReading.nullWords }

    /// Whether `text`, trimmed of whitespace and lowercased, is one of ``nullWords``.
    public static func isNullWord(_ text: String) -> Bool {
        LenientReading.isNullWord(text)
    }

    /// Reads a string.
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: strings as they are (not trimmed), numbers as their JSON literal text
    ///   (`7.50` stays `"7.50"`), booleans as `"true"`/`"false"`; `nil` for null words,
    ///   `null`, arrays and objects.
    public static func string(_ value: JSONValue?) -> String? {
        guard let value, !isNullWordString(value) else { return nil }
        return LenientScalar.readString(value).value
    }

    /// Reads a list of strings.
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: for an array, its elements read with ``string(_:)``, null words and `null`
    ///   dropped (`nil` if an element is an array or object); for a string, its comma-separated
    ///   items trimmed, empty items and null words dropped (`"a, b"` -> `["a", "b"]`); for a
    ///   number or boolean, its text as the only item; `nil` for a null word, `null` and
    ///   objects.
    public static func stringArray(_ value: JSONValue?) -> [String]? {
        guard let value, !isNullWordString(value) else { return nil }
        switch value {
        case .array(let elements):
            var items: [String] = []
            for element in elements {
                switch element {
                case .array, .object: return nil
                case .null: continue
                case .bool, .number, .string:
                    if let item = string(element) { items.append(item) }
                }
            }
            return items
        case .string(let text):
            return LenientScalar.commaSeparatedItems(text)
        case .number, .bool:
            return LenientScalar.readString(value).value.map { [$0] }
        case .null, .object:
            return nil
        }
    }

    /// Reads an integer, never trapping.
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: JSON numbers and numeric strings (`"7"`, `"7.0"`, `" 1,024 "`, `"$12"`,
    ///   `"85%"` -> 85) with any fraction truncated toward zero (`7.9` -> 7, `-7.9` -> -7);
    ///   `nil` when out of `Int`'s range (`"1e400"`, `9223372036854775808`), for `"NaN"`,
    ///   `"abc"`, null words, `null`, booleans, arrays and objects.
    public static func int(_ value: JSONValue?) -> Int? {
        guard let value else { return nil }
        return LenientScalar.readInteger(value, as: Int.self).value
    }

    /// Reads a finite double.
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: JSON numbers and numeric strings, with currency symbols ($ € £ ¥), a
    ///   trailing `%`, thousands separators and surrounding spaces removed (`"85%"` -> 85,
    ///   `"$1,299.99"` -> 1299.99, `"1,024"` -> 1024); `nil` for non-finite values (`1e400`),
    ///   malformed grouping (`"1,5"`), `"NaN"`, `"abc"`, null words, `null`, booleans, arrays
    ///   and objects.
    public static func double(_ value: JSONValue?) -> Double? {
        guard let value else { return nil }
        return LenientScalar.readDouble(value).value
    }

    /// Reads a boolean.
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: JSON booleans; the numbers 1 and 0; the strings `true`/`false`, `yes`/`no`,
    ///   `y`/`n`, `1`/`0` in any case and with surrounding spaces; `nil` for everything else.
    public static func bool(_ value: JSONValue?) -> Bool? {
        guard let value else { return nil }
        return LenientScalar.readBool(value).value
    }

    /// Reads a confidence as a fraction in `0...1`.
    ///
    /// A string ending in `%` is divided by 100 (`"85%"` -> 0.85, `"0.5%"` -> 0.005); otherwise
    /// a value above 1 is read as a percentage (`85` -> 0.85, `1.5` -> 0.015); the result is
    /// clamped to `0...1` (`-3` -> 0, `250` -> 1).
    ///
    /// - Parameter value: the JSON value, or `nil` for a missing member.
    /// - Returns: the fraction, or `nil` when ``double(_:)`` would give `nil`.
    ///
    /// A `Decodable` type reads a confidence this way with a ``Confidence`` property.
    public static func confidence(_ value: JSONValue?) -> Double? {
        guard let value else { return nil }
        return LenientScalar.readConfidence(value).value
    }

    private static func isNullWordString(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return false }
        return isNullWord(text)
    }
}

extension LLMDecoding {
    /// A one-line summary of a decoding error: `PATH: WHAT`, the path in ``JSONPath`` form.
    ///
    /// - `typeMismatch`: `$.items[2].year: expected Int, found string "abc"`;
    /// - `valueNotFound`: `$.score: expected Double, found null`;
    /// - `keyNotFound`: `$.title: missing key` (the path includes the missing key);
    /// - `dataCorrupted`: `$.n: expected Int8, found number 300 (out of range)`.
    ///
    /// The text after the path is the error's `debugDescription` with its first letter
    /// lowercased and a final period dropped; for `typeMismatch` and `valueNotFound` it is
    /// prefixed with `expected TYPE: ` unless it already starts with `expected`. Works for errors
    /// from any decoder (Foundation's `JSONDecoder` included); line breaks become spaces.
    ///
    /// - Parameter error: the error.
    /// - Returns: the summary, one line.
    public static func summary(of error: DecodingError) -> String {
        let text: String
        switch error {
        case .typeMismatch(let type, let context):
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + expectation(type, context.debugDescription, fallback: "")
        case .valueNotFound(let type, let context):
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + expectation(type, context.debugDescription, fallback: ", found null")
        case .keyNotFound(let key, let context):
            text = "\(JSONPath(codingPath: context.codingPath + [key])): missing key"
        case .dataCorrupted(let context):
            let message = sentenceFragment(context.debugDescription)
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + (message.isEmpty ? "data corrupted" : message)
        @unknown default:
            text = "\(error)"
        }
        return oneLine(text)
    }

    /// `expected TYPE` joined with the description's fragment.
    private static func expectation(_ type: Any.Type, _ description: String, fallback: String)
        -> String
    {
        let expected = "expected \(type)"
        let message = sentenceFragment(description)
        if message.isEmpty { return expected + fallback }
        if message.hasPrefix("expected") { return message }
        return expected + ": " + message
    }

    /// `description` trimmed, a final period dropped, the first letter lowercased when the
    /// first word is a capitalized ordinary word (`Expected` -> `expected`; `URL` stays).
    private static func sentenceFragment(_ description: String) -> String {
        var text = Substring(description)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        let characters = Array(text.prefix(2))
        if characters.count == 2, characters[0].isUppercase, characters[1].isLowercase {
            return characters[0].lowercased() + text.dropFirst()
        }
        return String(text)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
