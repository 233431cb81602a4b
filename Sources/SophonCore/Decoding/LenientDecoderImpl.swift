/// The `Decoder` handed to `init(from:)` by ``LenientJSONDecoder``: one JSON value at one
/// coding path.
struct LenientDecoderImpl: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let session: LenientDecodingSession

    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members):
            return KeyedDecodingContainer(
                LenientKeyedContainer<Key>(members: members, codingPath: codingPath, session: session))
        case .null:
            throw DecodingError.valueNotFound(
                [String: Any].self, session.context(codingPath, "Expected object, found null."))
        case .string(let text) where LenientReading.isNullWord(text):
            throw DecodingError.valueNotFound(
                [String: Any].self,
                session.context(codingPath, "Expected object, found null word \(value.compactText)."))
        case .bool, .number, .string, .array:
            throw DecodingError.typeMismatch(
                [String: Any].self,
                session.context(codingPath, "Expected object, found \(session.describe(value))."))
        }
    }

    /// An array's elements; any other value but `null` or a null word as a one-element array
    /// (recorded as ``JSONCoercion/Kind/singleValueToArray``).
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements):
            return LenientUnkeyedContainer(elements: elements, codingPath: codingPath, session: session)
        case .null:
            throw DecodingError.valueNotFound(
                [Any].self, session.context(codingPath, "Expected array, found null."))
        case .string(let text) where LenientReading.isNullWord(text):
            throw DecodingError.valueNotFound(
                [Any].self,
                session.context(codingPath, "Expected array, found null word \(value.compactText)."))
        case .bool, .number, .string, .object:
            session.record(.singleValueToArray, from: value, to: .array([value]), at: codingPath)
            return LenientUnkeyedContainer(elements: [value], codingPath: codingPath, session: session)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        LenientSingleValueContainer(value: value, codingPath: codingPath, session: session)
    }
}

/// The single-value container: every `decode` goes through the session's lenient reading.
struct LenientSingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let session: LenientDecodingSession

    /// `true` for `null` and for null words (recorded as a coercion).
    func decodeNil() -> Bool {
        session.isNil(value, at: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }

    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }

    private func read<T: Decodable>(_ type: T.Type) throws -> T {
        try session.decode(type, from: value, at: codingPath)
    }
}

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

/// An unkeyed container over a JSON array (or over a single value read as a one-element
/// array).
struct LenientUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    let session: LenientDecodingSession
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey], session: LenientDecodingSession) {
        self.elements = elements
        self.codingPath = codingPath
        self.session = session
    }

    var count: Int? { elements.count }

    var isAtEnd: Bool { currentIndex >= elements.count }

    /// `true` (and moves on) for `null` and null words (recorded as a coercion).
    /// - Throws: `valueNotFound` at the end of the array.
    mutating func decodeNil() throws -> Bool {
        let value = try current(expecting: Any?.self)
        guard session.isNil(value, at: elementPath) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    mutating func decode(_ type: String.Type) throws -> String { try read(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try read(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try readIfPresent(type)
    }
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try readIfPresent(type) }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try readIfPresent(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try elementDecoder(expecting: [String: Any].self).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try elementDecoder(expecting: [Any].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try elementDecoder(expecting: Any.self)
        currentIndex += 1
        return decoder
    }

    private var elementPath: [any CodingKey] { codingPath + [JSONPath.IndexKey(index: currentIndex)] }

    /// The current element.
    /// - Throws: `valueNotFound` for `type` when the array has no more elements.
    private func current(expecting type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            let count = elements.count
            throw DecodingError.valueNotFound(
                type,
                session.context(
                    elementPath,
                    "Expected \(session.typeName(type)), found end of array "
                        + "(\(count) element\(count == 1 ? "" : "s"))."))
        }
        return elements[currentIndex]
    }

    private func elementDecoder(expecting type: Any.Type) throws -> LenientDecoderImpl {
        LenientDecoderImpl(value: try current(expecting: type), codingPath: elementPath, session: session)
    }

    private mutating func read<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try session.decode(type, from: current(expecting: type), at: elementPath)
        currentIndex += 1
        return value
    }

    /// `nil` at the end of the array, as the standard library's default implementation.
    private mutating func readIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard !isAtEnd else { return nil }
        let value = try session.decodeIfPresent(type, from: elements[currentIndex], at: elementPath)
        currentIndex += 1
        return value
    }
}
