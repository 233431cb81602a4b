import Foundation
import SophonCore

/// Carries a ``JSONValue`` through `Codable` (JSONValue itself is not Codable in SophonCore).
///
/// Decoding reads whatever JSON is there. Foundation's decoder does not give object members in
/// source order (its `allKeys` order changes between runs), so members are sorted by key to
/// keep decoded values deterministic. Encoding through
/// ``OrderedJSONEncoder`` keeps the value as is; other encoders get the structure, with numbers
/// as `Int` when integral and small, else `Double`.
struct JSONValueBox: Codable, Sendable, Hashable {
    var value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: IndexKey.self) {
            var members: [JSONMember] = []
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(
                    JSONMember(key.stringValue, try container.decode(JSONValueBox.self, forKey: key).value))
            }
            value = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValueBox.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let flag = try? single.decode(Bool.self) {
            value = .bool(flag)
        } else if let integer = try? single.decode(Int64.self) {
            value = JSONNumber(text: "\(integer)").map(JSONValue.number) ?? .null
        } else if let double = try? single.decode(Double.self) {
            value = JSONValue.double(double) ?? .null
        } else {
            value = .string(try single.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        if let node = encoder as? NodeEncoder {
            node.node.kind = .value(value)
            return
        }
        switch value {
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
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(JSONValueBox(element)) }
        case .object(let members):
            var container = encoder.container(keyedBy: IndexKey.self)
            for member in members {
                try container.encode(JSONValueBox(member.value), forKey: IndexKey(stringValue: member.key))
            }
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes an optional JSON value stored under `key`.
    func decodeJSONIfPresent(forKey key: Key) throws -> JSONValue? {
        try decodeIfPresent(JSONValueBox.self, forKey: key)?.value
    }
}

extension KeyedEncodingContainer {
    /// Encodes `value` under `key` unless it is `nil`.
    mutating func encodeJSONIfPresent(_ value: JSONValue?, forKey key: Key) throws {
        if let value { try encode(JSONValueBox(value), forKey: key) }
    }
}
