import SophonCore

extension GeminiSchema: Codable {
    /// Encodes the schema as ``jsonValue`` does.
    ///
    /// Keyed containers of Foundation's `JSONEncoder` on Linux do not keep insertion order
    /// (their object storage is a dictionary): for byte-stable text use ``jsonValue`` with
    /// `compactText`/`prettyText`, or set `outputFormatting = .sortedKeys` (properties then go
    /// out sorted; `propertyOrdering` still carries the intended order).
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try SchemaJSONCoding(jsonValue).encode(to: encoder)
    }

    /// Decodes Gemini Schema JSON, ignoring keys it does not know (forward compatibility).
    ///
    /// A `Decoder` does not report the order of object keys, so properties are read sorted by
    /// name; `propertyOrdering`, when present, still sets the output order. To keep a file's
    /// order, parse the text to a ``JSONValue`` and use ``init(jsonValue:strict:path:)``.
    /// - Throws: `DecodingError.dataCorrupted` with the ``GeminiSchemaError`` description when
    ///   a field has the wrong kind of value.
    public init(from decoder: any Decoder) throws {
        let value = try SchemaJSONCoding(from: decoder).value
        do {
            try self.init(jsonValue: value, strict: false)
        } catch let error as GeminiSchemaError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description,
                    underlyingError: error))
        }
    }
}

/// Carries a ``JSONValue`` through `Encoder`/`Decoder`. Object keys read from a `Decoder` are
/// sorted by name, since decoders do not report their order.
struct SchemaJSONCoding: Codable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    private struct Key: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            let keys = keyed.allKeys.sorted { $0.stringValue < $1.stringValue }
            value = .object(
                try keys.map {
                    JSONMember($0.stringValue, try keyed.decode(SchemaJSONCoding.self, forKey: $0).value)
                })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(SchemaJSONCoding.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let flag = try? single.decode(Bool.self) {
            value = .bool(flag)
        } else if let integer = try? single.decode(Int.self) {
            value = .integer(integer)
        } else if let double = try? single.decode(Double.self), let number = JSONValue.double(double) {
            value = number
        } else {
            value = .string(try single.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
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
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(SchemaJSONCoding(element)) }
        case .object(let members):
            var keyed = encoder.container(keyedBy: Key.self)
            for member in members {
                try keyed.encode(SchemaJSONCoding(member.value), forKey: Key(member.key))
            }
        }
    }
}
