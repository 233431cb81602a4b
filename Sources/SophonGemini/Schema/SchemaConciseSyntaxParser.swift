import SophonCore

/// Parses `llm`'s concise schema syntax into an object ``GeminiSchema``.
///
/// `name, age int, bio: a short bio`: fields are separated by commas, or by line breaks when
/// the input has any (then a description may contain commas). Each field is
/// `NAME [TYPE] [: DESCRIPTION]`; TYPE is `str` (the default), `int`, `float` or `bool` (also
/// `string`, `integer`, `number`, `boolean`). Every field is required; `propertyOrdering`
/// follows the order written. Empty fields (`a,,b` or blank lines) are skipped.
struct SchemaConciseSyntaxParser {
    private let characters: [Character]

    init(_ text: String) { characters = Array(text) }

    func parse() throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        let byLines = characters.contains { $0.isNewline }
        // Split into fields, remembering where each starts.
        var fields: [(start: Int, text: [Character])] = []
        var start = 0
        for index in 0...characters.count {
            let atEnd = index == characters.count
            let isSeparator = !atEnd && (byLines ? characters[index].isNewline : characters[index] == ",")
            if atEnd || isSeparator {
                fields.append((start, Array(characters[start..<index])))
                start = index + 1
            }
        }
        var properties = GeminiSchemaProperties()
        for field in fields {
            guard let (name, schema, nameStart) = try parseField(field.text, offset: field.start) else {
                continue
            }
            if properties[name] != nil {
                throw error("duplicate field \(JSONValueText.quoted(name))", at: nameStart)
            }
            properties[name] = schema
        }
        if properties.isEmpty { throw error("expected at least one field", at: 0) }
        return GeminiSchema(
            type: .object, properties: properties, required: properties.names,
            propertyOrdering: properties.names)
    }

    /// One field, or `nil` when it is blank.
    private func parseField(_ text: [Character], offset: Int) throws(GeminiSchemaSyntaxError) -> (
        String, GeminiSchema, Int
    )? {
        let colon = text.firstIndex(of: ":")
        let head = text[..<(colon ?? text.count)]
        var description: String?
        if let colon {
            let rest = String(text[(colon + 1)...]).trimmingWhitespace()
            if !rest.isEmpty { description = rest }
        }
        // Words of the head, with their offsets.
        var words: [(String, Int)] = []
        var index = head.startIndex
        while index < head.endIndex {
            if head[index].isWhitespace {
                index += 1
                continue
            }
            let wordStart = index
            while index < head.endIndex, !head[index].isWhitespace { index += 1 }
            words.append((String(head[wordStart..<index]), offset + wordStart))
        }
        guard let (name, nameStart) = words.first else {
            if colon == nil { return nil }
            throw error("expected a field name before ':'", at: offset + (colon ?? 0))
        }
        var type = GeminiSchemaType.string
        if words.count >= 2 {
            let (typeName, typeStart) = words[1]
            guard let known = SchemaConciseSyntaxParser.typeNames[typeName] else {
                let names = ["str", "int", "float", "bool", "string", "integer", "number", "boolean"]
                let hint = EditDistance.closest(to: typeName, among: names, limit: 2, ignoringCase: true)
                    .first.map { "did you mean '\($0)'?" }
                throw error(
                    "unknown type \(JSONValueText.quotedWord(typeName)) (\(hint ?? "expected str, int, float or bool"))",
                    at: typeStart)
            }
            type = known
        }
        if words.count >= 3 {
            let (extra, extraStart) = words[2]
            throw error(
                "unexpected \(JSONValueText.quoted(extra)) after the type (a description follows ':')",
                at: extraStart)
        }
        return (name, GeminiSchema(type: type, description: description), nameStart)
    }

    static let typeNames: [String: GeminiSchemaType] = [
        "str": .string, "string": .string, "int": .integer, "integer": .integer,
        "float": .number, "number": .number, "bool": .boolean, "boolean": .boolean,
    ]

    private func error(_ message: String, at index: Int) -> GeminiSchemaSyntaxError {
        SchemaTextLocation.error(message, at: index, in: characters)
    }
}

extension String {
    /// The string without leading and trailing whitespace (spaces, tabs, line breaks).
    fileprivate func trimmingWhitespace() -> String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
