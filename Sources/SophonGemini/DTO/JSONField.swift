import SophonCore

/// Stores an optional free-form `JSONValue` (SophonCore) inside a Codable DTO (tool declarations,
/// function-call arguments, grounding metadata): omitted when `nil`, decoded as is.
@propertyWrapper
public struct JSONField: Codable, Sendable, Hashable {
    /// The value, or `nil` when the field is absent.
    public var wrappedValue: JSONValue?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: JSONValue?) { self.wrappedValue = wrappedValue }

    /// Decodes the value (a JSON `null` becomes `.null`).
    public init(from decoder: any Decoder) throws {
        wrappedValue = try JSONValue(from: decoder)
    }

    /// Encodes the value; `nil` is skipped by the container extension below. The value goes
    /// through a single-value container, so `OrderedJSONEncoder` takes it as is (number
    /// literals kept).
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(wrappedValue ?? .null)
    }
}

extension KeyedDecodingContainer {
    /// A missing key gives a `nil` field instead of a `keyNotFound` error.
    public func decode(_ type: JSONField.Type, forKey key: Key) throws -> JSONField {
        try decodeIfPresent(type, forKey: key) ?? JSONField(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A `nil` field is omitted from the output.
    public mutating func encode(_ value: JSONField, forKey key: Key) throws {
        guard value.wrappedValue != nil else { return }
        try encodeIfPresent(value as JSONField?, forKey: key)
    }
}
