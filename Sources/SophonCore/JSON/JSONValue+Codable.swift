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
