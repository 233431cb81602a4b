import SophonCore

/// What one decoder level described: a finished schema, or an object or array still being
/// filled in by its container.
enum SchemaNode {
    case schema(GeminiSchema)
    case object(SchemaObjectRecorder)
    case array(SchemaArrayRecorder)

    /// The schema, nested recorders resolved.
    var schema: GeminiSchema {
        switch self {
        case .schema(let schema): schema
        case .object(let recorder): recorder.schema
        case .array(let recorder): recorder.schema
        }
    }
}

/// The properties a keyed container was asked for, in order.
final class SchemaObjectRecorder {
    private var names: [String] = []
    private var nodes: [String: SchemaNode] = [:]
    private var required: [String] = []

    /// Records a property; the first record of a name wins, `required` when any read was.
    func record(_ name: String, _ node: SchemaNode, required isRequired: Bool) {
        if nodes[name] == nil {
            names.append(name)
            nodes[name] = node
        }
        if isRequired, !required.contains(name) { required.append(name) }
    }

    var schema: GeminiSchema {
        var properties = GeminiSchemaProperties()
        for name in names { properties[name] = nodes[name]?.schema }
        return GeminiSchema(
            type: .object, properties: properties, required: names.filter(required.contains),
            propertyOrdering: names)
    }
}

/// The element an unkeyed container was asked for.
final class SchemaArrayRecorder {
    var items: SchemaNode?

    var schema: GeminiSchema { GeminiSchema(type: .array, items: items?.schema ?? .string()) }
}

/// A `Decoder` that hands out placeholder values and records the schema of what it was asked
/// for (``GeminiSchema/init(for:)``). Keyed containers contain every key and hold no `null`;
/// unkeyed containers hold one element.
final class SchemaDescribingDecoder: Decoder {
    let describer: SchemaDescriber
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What this level described; `nil` until a container was asked for.
    var node: SchemaNode?

    init(describer: SchemaDescriber, codingPath: [any CodingKey]) {
        self.describer = describer
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let recorder = SchemaObjectRecorder()
        node = .object(recorder)
        return KeyedDecodingContainer(
            SchemaKeyedContainer<Key>(describer: describer, codingPath: codingPath, recorder: recorder))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let recorder = SchemaArrayRecorder()
        node = .array(recorder)
        return SchemaUnkeyedContainer(describer: describer, codingPath: codingPath, recorder: recorder)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SchemaSingleValueContainer(decoder: self)
    }
}

/// One index of an unkeyed container, for coding paths.
struct SchemaIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct SchemaKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let describer: SchemaDescriber
    let codingPath: [any CodingKey]
    let recorder: SchemaObjectRecorder

    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    private func read<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T {
        let (schema, value) = try describer.describe(type, at: codingPath + [key])
        recorder.record(key.stringValue, .schema(schema), required: required)
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try read(type, key, required: true)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, key, required: true) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, key, required: true) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, key, required: true) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, key, required: true) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, key, required: true) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, key, required: true) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, key, required: true) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, key, required: true) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, key, required: true) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, key, required: true) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, key, required: true) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, key, required: true) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, key, required: true) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, key, required: true) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try read(type, key, required: false)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try read(type, key, required: false)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = SchemaObjectRecorder()
        recorder.record(key.stringValue, .object(nested), required: true)
        return KeyedDecodingContainer(
            SchemaKeyedContainer<NestedKey>(
                describer: describer, codingPath: codingPath + [key], recorder: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = SchemaArrayRecorder()
        recorder.record(key.stringValue, .array(nested), required: true)
        return SchemaUnkeyedContainer(describer: describer, codingPath: codingPath + [key], recorder: nested)
    }

    func superDecoder() throws -> any Decoder {
        throw describer.failure(codingPath, Key.self, .unsupportedDecoding("superDecoder()"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw describer.failure(codingPath + [key], Key.self, .unsupportedDecoding("superDecoder(forKey:)"))
    }
}

struct SchemaUnkeyedContainer: UnkeyedDecodingContainer {
    let describer: SchemaDescriber
    let codingPath: [any CodingKey]
    let recorder: SchemaArrayRecorder
    var currentIndex = 0

    init(describer: SchemaDescriber, codingPath: [any CodingKey], recorder: SchemaArrayRecorder) {
        self.describer = describer
        self.codingPath = codingPath
        self.recorder = recorder
    }

    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }
    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = try describer.describe(type, at: codingPath + [SchemaIndexKey(currentIndex)])
        if recorder.items == nil { recorder.items = .schema(schema) }
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = SchemaObjectRecorder()
        if recorder.items == nil { recorder.items = .object(nested) }
        let path = codingPath + [SchemaIndexKey(currentIndex)]
        currentIndex += 1
        return KeyedDecodingContainer(
            SchemaKeyedContainer<NestedKey>(describer: describer, codingPath: path, recorder: nested))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let nested = SchemaArrayRecorder()
        if recorder.items == nil { recorder.items = .array(nested) }
        let path = codingPath + [SchemaIndexKey(currentIndex)]
        currentIndex += 1
        return SchemaUnkeyedContainer(describer: describer, codingPath: path, recorder: nested)
    }

    mutating func superDecoder() throws -> any Decoder {
        throw describer.failure(codingPath, Any.self, .unsupportedDecoding("superDecoder()"))
    }
}

struct SchemaSingleValueContainer: SingleValueDecodingContainer {
    let decoder: SchemaDescribingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = try decoder.describer.describe(type, at: codingPath)
        decoder.node = .schema(schema)
        return value
    }
}
