import Foundation

/// A JSON value (RFC 8259) that keeps what LLM output and byte-stable files need.
///
/// - Objects keep their members in source order (Swift dictionaries do not, and their
///   iteration order changes between runs), so printing a value is deterministic.
/// - Numbers keep their literal text (`12345678901234567890`, `1e400`, `7.0`), so nothing is
///   rounded or trapped on the way through; ``JSONValue/doubleValue`` converts on demand.
///
/// Print with ``JSONValue/compactText`` or ``JSONValue/prettyText``: both emit strict JSON.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON literal text (always valid JSON number syntax).
    case number(JSONNumber)
    /// A string (already unescaped).
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, members in source order. Duplicate keys are kept as found; lookups return
    /// the last one, as `JSONSerialization` and JavaScript do.
    case object([JSONMember])

    /// A number value from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// A number value from a double; `nil` when it is not finite (JSON has no NaN or infinity).
    public static func double(_ value: Double) -> JSONValue? {
        JSONNumber(value).map(JSONValue.number)
    }

    /// The value of the last member named `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The number as a `Double` (may be infinite for `1e400`), or `nil` for other kinds.
    public var doubleValue: Double? {
        guard case .number(let number) = self else { return nil }
        return number.doubleValue
    }

    /// The string payload, or `nil` for other kinds.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The JSON type name used in messages: `null`, `boolean`, `number`, `string`, `array`,
    /// `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// One member of a JSON object: a key and its value.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON number kept as its literal text, so large integers and exponents survive unchanged.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, in RFC 8259 number syntax (`-?int frac? exp?`).
    public let text: String

    /// Wraps `text` when it is valid JSON number syntax, else returns `nil`.
    public init?(text: String) {
        guard JSONNumber.isValidSyntax(text) else { return nil }
        self.text = text
    }

    /// A number from an integer.
    public init(_ value: Int) { text = String(value) }

    /// A number from a finite double (shortest round-tripping text, integral values without
    /// a fraction: `3`, not `3.0`); `nil` when `value` is NaN or infinite.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            let description = "\(value)"  // Swift prints the shortest round-tripping form.
            text = description.split(separator: "+").joined()
        }
    }

    /// The value as a `Double`; `±infinity` when the literal is out of range (`1e400`).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The literal text.
    public var description: String { text }

    /// Whether `text` is a JSON number literal.
    public static func isValidSyntax(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes.removeFirst()
            }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}

extension JSONValue {
    /// Parses `text` as strict RFC 8259 JSON: one value, surrounded only by whitespace; no
    /// repairs, comments, trailing commas or single quotes. Objects and arrays may nest up to
    /// 512 levels.
    /// - Parameter text: the JSON text.
    /// - Throws: ``JSONParseError`` with the UTF-8 byte offset, 1-based line and column, and a
    ///   message, for the first problem found (syntax, an invalid escape or unpaired surrogate,
    ///   a raw control character in a string, text after the value, nesting past 512 levels).
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
            var parser = JSONByteParser(
                bytes: bytes, start: 0, end: bytes.count, mode: .strict, maxDepth: 512)
            var failure: JSONParseFailure
            do throws(JSONParseFailure) {
                let value = try parser.parseValue()
                try parser.skipInsignificant()
                guard parser.position < bytes.count else { return .success(value) }
                let found = parser.describe(at: parser.position)
                failure = .syntax(
                    offset: parser.position, message: "unexpected \(found) after the JSON value")
            } catch {
                failure = error
            }
            let (offset, message, inputEnded) =
                switch failure {
                case .syntax(let offset, let message): (offset, message, false)
                case .endOfInput(let offset, let message): (offset, message, true)
                case .tooDeep(let offset, let limit): (offset, "nesting deeper than \(limit) levels", false)
                // Strict parsing sets no length limits; kept for exhaustiveness.
                case .runawayNumber(let offset, _): (offset, "number too long", false)
                case .runawayEscape(let offset, _): (offset, "escape run too long", false)
                }
            let location = TextLocation(utf8Offset: offset, in: bytes)
            return .failure(
                JSONParseError(
                    offset: offset, line: location.line, column: location.column, message: message,
                    inputEnded: inputEnded))
        }
        self = try result.get()
    }
}

/// `JSONValue` through `Codable`, for `Codable` types with free-form JSON fields (tool
/// declarations, function-call arguments, schemas).
///
/// - Decoding reads whatever JSON the decoder holds. A `Decoder` does not report the order of
///   object keys (Foundation's `JSONDecoder` gives them in a different order from run to run), so
///   members are sorted by key, which keeps decoded values deterministic; parse text with
///   ``JSONValue/init(parsing:)`` to keep its order. A number is kept exactly when it fits `Int`,
///   else read as a `Double` (a non-finite one, which `JSONDecoder` never produces, as `null`).
/// - Encoding writes the structure: objects through a keyed container in member order (which
///   the encoder may or may not keep), numbers as `Int` when the literal is an integer that
///   fits, else as `Double`. An encoder that takes a `JSONValue` through `encode(_:)` as is keeps
///   every literal.
extension JSONValue: Codable {
    /// Reads the JSON value the decoder holds.
    /// - Throws: `DecodingError` from the decoder when the value is none of null, boolean,
    ///   number, string, array or object.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: JSONValueCodingKey.self) {
            let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(
                try keys.map { JSONMember($0.stringValue, try keyed.decode(JSONValue.self, forKey: $0)) })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? single.decode(Int.self) {
            self = .integer(integer)
        } else if let double = try? single.decode(Double.self) {
            self = JSONValue.double(double) ?? .null
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Writes the value's structure.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let integer = Int(number.text) {
                try single.encode(integer)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .object(let members):
            var keyed = encoder.container(keyedBy: JSONValueCodingKey.self)
            for member in members { try keyed.encode(member.value, forKey: JSONValueCodingKey(member.key)) }
        }
    }
}

/// An object member name as a coding key.
private struct JSONValueCodingKey: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
