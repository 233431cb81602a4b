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
        try jsonValue.encode(to: encoder)
    }

    /// Decodes Gemini Schema JSON, ignoring keys it does not know (forward compatibility).
    ///
    /// A `Decoder` does not report the order of object keys, so properties are read sorted by
    /// name; `propertyOrdering`, when present, still sets the output order. To keep a file's
    /// order, parse the text to a `JSONValue` and use ``init(jsonValue:strict:path:)``.
    /// - Throws: `DecodingError.dataCorrupted` with the ``GeminiSchemaError`` description when
    ///   a field has the wrong kind of value.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
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
