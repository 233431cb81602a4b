extension JSONValue {
    /// Parses `text` as strict RFC 8259 JSON: one value, surrounded only by whitespace; no
    /// repairs, comments, trailing commas or single quotes. Objects and arrays may nest up to
    /// 512 levels.
    /// - Parameter text: the JSON text.
    /// - Throws: ``JSONParseError`` with the UTF-8 byte offset, 1-based line and column, and a
    ///   message, for the first problem found (syntax, an invalid escape or unpaired surrogate,
    ///   a raw control character in a string, text after the value, nesting past 512 levels).
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
            var parser = JSONByteParser(
                bytes: bytes, start: 0, end: bytes.count, mode: .strict, maxDepth: 512)
            var failure: JSONParseFailure
            do throws(JSONParseFailure) {
                let value = try parser.parseValue()
                try parser.skipInsignificant()
                guard parser.position < bytes.count else { return .success(value) }
                let found = parser.describe(at: parser.position)
                failure = .syntax(
                    offset: parser.position, message: "unexpected \(found) after the JSON value")
            } catch {
                failure = error
            }
            let (offset, message) =
                switch failure {
                case .syntax(let offset, let message): (offset, message)
                case .tooDeep(let offset, let limit): (offset, "nesting deeper than \(limit) levels")
                // Strict parsing sets no length limits; kept for exhaustiveness.
                case .runawayNumber(let offset, _): (offset, "number too long")
                case .runawayEscape(let offset, _): (offset, "escape run too long")
                }
            let location = TextLocation(utf8Offset: offset, in: bytes)
            return .failure(
                JSONParseError(offset: offset, line: location.line, column: location.column, message: message)
            )
        }
        self = try result.get()
    }
}
