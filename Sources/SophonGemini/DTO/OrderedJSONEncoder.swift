import Foundation
import SophonCore

/// Encodes any `Encodable` to a ``JSONValue`` whose object members keep the order in which
/// `encode(to:)` wrote them.
///
/// Foundation's `JSONEncoder` on Linux does not keep keyed-container order (measured here:
/// three encodes of one value, two different orders), so requests and schemas go through this
/// encoder to stay byte-stable. `Data` goes out as base64, like `JSONEncoder`'s default.
package struct OrderedJSONEncoder: Sendable {
    /// Creates an encoder.
    package init() {}

    /// Encodes `value` to a JSON value.
    /// - Throws: `EncodingError.invalidValue` for a non-finite floating-point number, or for a
    ///   value that encoded nothing.
    package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        try OrderedJSONEncoder.box(value, codingPath: [])
    }

    /// Encodes `value` to compact UTF-8 JSON bytes.
    /// - Throws: as ``encode(_:)``.
    package func encodeData<T: Encodable>(_ value: T) throws -> Data {
        JSONCompactBytes.data(try encode(value))
    }

    static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        if let data = value as? Data { return .string(data.base64EncodedString()) }
        if let double = value as? Double { return try number(double, codingPath) }
        if let float = value as? Float { return try number(Double(float), codingPath) }
        if let schema = value as? GeminiSchema { return try schemaValue(schema.jsonValue, codingPath) }
        let node = EncodingNode()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        guard let result = node.resolve() else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: codingPath, debugDescription: "The value encoded nothing."))
        }
        return result
    }

    /// A schema's JSON as `GeminiSchema.encode(to:)` writes it through this encoder (numbers
    /// that read as `Int` as integers, others as doubles), without the per-node coding
    /// containers: that path cost about 200,000 instructions per request (callgrind, see
    /// docs/benchmarks.md).
    static func schemaValue(_ value: JSONValue, _ codingPath: [any CodingKey]) throws -> JSONValue {
        switch value {
        case .null, .bool, .string: return value
        case .number(let literal):
            if let integer = Int(literal.text) { return .integer(integer) }
            return try number(literal.doubleValue, codingPath)
        case .array(let elements): return .array(try elements.map { try schemaValue($0, codingPath) })
        case .object(let members):
            return .object(try members.map { JSONMember($0.key, try schemaValue($0.value, codingPath)) })
        }
    }

    static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard let json = JSONValue.double(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "JSON has no NaN or infinity."))
        }
        return json
    }
}

/// A node of the value being encoded; a class because nested containers write into it later.
/// Not Sendable: it lives only during one synchronous `encode` call.
final class EncodingNode {
    enum Kind {
        case empty
        case value(JSONValue)
        case object(keys: [String], members: [String: EncodingNode])
        case array([EncodingNode])
    }

    var kind: Kind = .empty

    init(_ kind: Kind = .empty) { self.kind = kind }

    func resolve() -> JSONValue? {
        switch kind {
        case .empty: return nil
        case .value(let value): return value
        case .object(let keys, let members):
            return .object(
                keys.compactMap { key in members[key]?.resolve().map { JSONMember(key, $0) } })
        case .array(let nodes): return .array(nodes.map { $0.resolve() ?? .null })
        }
    }

    func set(_ key: String, _ child: EncodingNode) {
        if case .object(var keys, var members) = kind {
            kind = .empty  // the arrays are now uniquely referenced: no copy on the writes below
            if members[key] == nil { keys.append(key) }
            members[key] = child
            kind = .object(keys: keys, members: members)
        } else {
            kind = .object(keys: [key], members: [key: child])
        }
    }

    func append(_ child: EncodingNode) {
        if case .array(var nodes) = kind {
            kind = .empty  // uniquely referenced: append in place
            nodes.append(child)
            kind = .array(nodes)
        } else {
            kind = .array([child])
        }
    }

    var count: Int {
        if case .array(let nodes) = kind { return nodes.count }
        return 0
    }
}

struct NodeEncoder: Encoder {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else { node.kind = .object(keys: [], members: [:]) }
        return KeyedEncodingContainer(NodeKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.kind {} else { node.kind = .array([]) }
        return NodeUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        NodeSingleContainer(node: node, codingPath: codingPath)
    }
}

/// The coding key used for array positions and ad-hoc keys.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.value(.null)))
    }

    // Strings, flags and integers skip `box`'s dynamic casts and per-value encoder (they are
    // most of a request's leaves).
    mutating func encode(_ value: String, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.value(.string(value))))
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.value(.bool(value))))
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.value(.number(JSONNumber(value)))))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let json = try OrderedJSONEncoder.box(value, codingPath: codingPath + [key])
        node.set(key.stringValue, EncodingNode(.value(json)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.object(keys: [], members: [:]))
        node.set(key.stringValue, child)
        return KeyedEncodingContainer(
            NodeKeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        node.set(key.stringValue, child)
        return NodeUnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        node.set(key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

struct NodeUnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(EncodingNode(.value(.null))) }

    mutating func encode(_ value: String) throws { node.append(EncodingNode(.value(.string(value)))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let json = try OrderedJSONEncoder.box(value, codingPath: codingPath + [IndexKey(intValue: count)])
        node.append(EncodingNode(.value(json)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(.object(keys: [], members: [:]))
        let path = codingPath + [IndexKey(intValue: count)]
        node.append(child)
        return KeyedEncodingContainer(NodeKeyedContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.array([]))
        let path = codingPath + [IndexKey(intValue: count)]
        node.append(child)
        return NodeUnkeyedContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        let path = codingPath + [IndexKey(intValue: count)]
        node.append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

struct NodeSingleContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.kind = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.kind = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.kind = .value(.string(value)) }
    mutating func encode(_ value: Int) throws { integer(value) }
    mutating func encode(_ value: Int8) throws { integer(value) }
    mutating func encode(_ value: Int16) throws { integer(value) }
    mutating func encode(_ value: Int32) throws { integer(value) }
    mutating func encode(_ value: Int64) throws { integer(value) }
    mutating func encode(_ value: UInt) throws { integer(value) }
    mutating func encode(_ value: UInt8) throws { integer(value) }
    mutating func encode(_ value: UInt16) throws { integer(value) }
    mutating func encode(_ value: UInt32) throws { integer(value) }
    mutating func encode(_ value: UInt64) throws { integer(value) }
    mutating func encode(_ value: Float) throws {
        node.kind = .value(try OrderedJSONEncoder.number(Double(value), codingPath))
    }
    mutating func encode(_ value: Double) throws {
        node.kind = .value(try OrderedJSONEncoder.number(value, codingPath))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.kind = .value(try OrderedJSONEncoder.box(value, codingPath: codingPath))
    }

    /// An integer's decimal text is always valid JSON number syntax.
    private func integer<I: BinaryInteger>(_ value: I) {
        node.kind = .value(JSONNumber(text: "\(value)").map(JSONValue.number) ?? .null)
    }
}

/// Writes a ``JSONValue`` as compact UTF-8 JSON bytes, byte for byte what
/// `JSONValue.compactText` produces (members in stored order, only `"`, `\` and control
/// characters escaped, `\u00XX` in lowercase hex), without building a `String`.
///
/// Request bodies go through it: appending to a `String` scalar by scalar cost about 440
/// instructions per output byte (measured with callgrind on a structured request, see
/// docs/benchmarks.md), a byte array about a tenth of that.
enum JSONCompactBytes {
    /// The compact UTF-8 bytes of `value`.
    static func data(_ value: JSONValue) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output)
        return Data(output)
    }

    static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` quoted; UTF-8 bytes at or above 0x20 other than `"` and `\` are copied.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
