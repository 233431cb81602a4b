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
