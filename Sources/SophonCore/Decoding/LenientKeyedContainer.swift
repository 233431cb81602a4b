/// A keyed container over a JSON object. Duplicate keys: the last one wins, as for
/// ``JSONValue`` subscripts.
struct LenientKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    let session: LenientDecodingSession
    private let members: [JSONMember]
    /// Key to the index of its last member, for objects too large to search member by member.
    private let index: [String: Int]?

    init(members: [JSONMember], codingPath: [any CodingKey], session: LenientDecodingSession) {
        self.members = members
        if members.count > Self.linearSearchLimit {
            var index: [String: Int] = [:]
            for (position, member) in members.enumerated() { index[member.key] = position }
            self.index = index
        } else {
            index = nil
        }
        self.codingPath = codingPath
        self.session = session
    }

    /// Up to this many members a lookup compares keys one by one, which is cheaper than
    /// hashing them all into a dictionary first (a typed reply has a handful of fields).
    private static var linearSearchLimit: Int { 16 }

    /// The value of the last member named `name`.
    private func lookup(_ name: String) -> JSONValue? {
        if let index { return index[name].map { members[$0].value } }
        return members.last(where: { $0.key == name })?.value
    }

    var allKeys: [Key] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? Key(stringValue: $0.key) : nil }
    }

    func contains(_ key: Key) -> Bool { lookup(key.stringValue) != nil }

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
            value: lookup(key.stringValue) ?? .null, codingPath: codingPath + [key], session: session)
    }

    /// A decoder for the member `key` (`null` when missing).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder(for: key, value: lookup(key.stringValue) ?? .null)
    }

    private func decoder(for key: Key, value: JSONValue) -> LenientDecoderImpl {
        LenientDecoderImpl(value: value, codingPath: codingPath + [key], session: session)
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = lookup(key.stringValue) else {
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
        try session.decodeIfPresent(type, from: lookup(key.stringValue), at: codingPath + [key])
    }
}
