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
