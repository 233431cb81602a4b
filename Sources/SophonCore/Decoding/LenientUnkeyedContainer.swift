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
