/// A keyed container over a JSON object. Duplicate keys: the last one wins, as for
/// ``JSONValue`` subscripts.
struct LenientKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    let session: LenientDecodingSession
    private let values: [String: JSONValue]
    private let orderedKeys: [String]

    init(members: [JSONMember], codingPath: [any CodingKey], session: LenientDecodingSession) {
        var values: [String: JSONValue] = [:]
        var orderedKeys: [String] = []
        for member in members {
            if values.updateValue(member.value, forKey: member.key) == nil {
                orderedKeys.append(member.key)
            }
        }
        self.values = values
        self.orderedKeys = orderedKeys
        self.codingPath = codingPath
        self.session = session
    }

    var allKeys: [Key] { orderedKeys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    /// `true` for `null` and null words (recorded as a coercion).
    /// - Throws: `keyNotFound` when the key is missing.
    func decodeNil(forKey key: Key) throws -> Bool {
        session.isNil(try value(for: key), at: codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try readIfPresent(type, key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key, value: value(for: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key, value: value(for: key)).unkeyedContainer()
    }

    /// A decoder for the member `super` (`null` when missing), as Foundation's `JSONDecoder`.
    func superDecoder() throws -> any Decoder {
        let key = NameKey("super")
        return LenientDecoderImpl(
            value: values[key.stringValue] ?? .null, codingPath: codingPath + [key], session: session)
    }

    /// A decoder for the member `key` (`null` when missing).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder(for: key, value: values[key.stringValue] ?? .null)
    }

    private func decoder(for key: Key, value: JSONValue) -> LenientDecoderImpl {
        LenientDecoderImpl(value: value, codingPath: codingPath + [key], session: session)
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = values[key.stringValue] else {
            var name = ""
            JSONTextWriter.writeString(key.stringValue, into: &name)
            throw DecodingError.keyNotFound(
                key, session.context(codingPath, "No value for key \(name)."))
        }
        return value
    }

    private func read<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try session.decode(type, from: value(for: key), at: codingPath + [key])
    }

    private func readIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try session.decodeIfPresent(type, from: values[key.stringValue], at: codingPath + [key])
    }
}
