import SophonCore

/// Parses the shell's schema type syntax (docs/commands.md) into a ``GeminiSchema``.
///
/// ```
/// spec     = type [description]
/// type     = primary { "|" primary }        strings -> enum; "| null" -> nullable
/// primary  = object | "[" type [description] "]" | quoted string | typename | "null"
/// object   = "{" property { ("," | newline) property } [","] "}"
/// property = name ["?"] ":" type [description]     name: letters, digits, _ - or quoted
/// typename = string | integer | number | boolean  (aliases: str, int, float, double, bool)
/// description = a quoted string on the same line as the type it follows (left out when blank)
/// ```
/// Properties are required unless marked `?`; objects get `propertyOrdering` in the order
/// written. Quoted strings take `"..."` (escapes `\" \\ \n \t \/ \uXXXX`) or `'...'` (literal).
struct SchemaTypeSyntaxParser {
    private let characters: [Character]
    private var position = 0
    private var depth = 0

    init(_ text: String) { characters = Array(text) }

    /// Parses the whole input as one schema.
    mutating func parseSpec() throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        skipWhitespace()
        guard position < characters.count else { throw error("expected a schema", at: position) }
        var schema = try parseType()
        try parseDescription(into: &schema)
        skipWhitespace()
        if position < characters.count {
            throw error("unexpected \(quoted(characters[position])) after the schema", at: position)
        }
        return schema
    }

    // MARK: Types

    private enum Primary {
        case literal(String)
        case null
        case schema(GeminiSchema)
    }

    private mutating func parseType() throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        var members: [(Primary, Int)] = []
        let first = position
        members.append((try parsePrimary(), first))
        while true {
            let save = position
            skipWhitespace()
            guard peek == "|" else {
                position = save
                break
            }
            position += 1
            skipWhitespace()
            let start = position
            members.append((try parsePrimary(), start))
        }
        if members.count == 1, case .schema(let schema) = members[0].0 { return schema }
        var literals: [String] = []
        var nullable = false
        var single: GeminiSchema?
        for (member, start) in members {
            switch member {
            case .literal(let text):
                guard single == nil else { throw mixedUnion(at: start) }
                if !literals.contains(text) { literals.append(text) }
            case .null:
                nullable = true
            case .schema(let schema):
                guard single == nil, literals.isEmpty else { throw mixedUnion(at: start) }
                single = schema
            }
        }
        if var schema = single {
            schema.nullable = true
            return schema
        }
        if literals.isEmpty { return GeminiSchema(type: .null) }
        return GeminiSchema(type: .string, nullable: nullable ? true : nil, enumValues: literals)
    }

    private func mixedUnion(at index: Int) -> GeminiSchemaSyntaxError {
        error("a union combines quoted strings (an enum), or one type with null", at: index)
    }

    private mutating func parsePrimary() throws(GeminiSchemaSyntaxError) -> Primary {
        guard let next = peek else { throw error("expected a type", at: position) }
        if next == "{" || next == "[" {
            guard depth < GeminiSchema.maximumDepth else {
                throw error("schema nested deeper than \(GeminiSchema.maximumDepth) levels", at: position)
            }
            depth += 1
        }
        defer { if next == "{" || next == "[" { depth -= 1 } }
        switch next {
        case "{": return .schema(try parseObject())
        case "[": return .schema(try parseArray())
        case "\"", "'": return .literal(try parseQuoted())
        default:
            let start = position
            let word = readWord()
            guard !word.isEmpty else { throw error("expected a type, got \(quoted(next))", at: start) }
            if word == "null" { return .null }
            guard let type = SchemaTypeSyntaxParser.typeNames[word] else {
                let names = ["string", "integer", "number", "boolean", "null"]
                if let suggestion = EditDistance.closest(to: word, among: names, limit: 2, ignoringCase: true)
                    .first
                {
                    throw error("unknown type \(quotedWord(word)) (did you mean '\(suggestion)'?)", at: start)
                }
                throw error(
                    "unknown type \(quotedWord(word)) (expected string, integer, number, boolean, "
                        + "an object, an array or quoted values)", at: start)
            }
            return .schema(GeminiSchema(type: type))
        }
    }

    /// Type names and their aliases.
    static let typeNames: [String: GeminiSchemaType] = [
        "string": .string, "str": .string, "integer": .integer, "int": .integer,
        "number": .number, "float": .number, "double": .number, "boolean": .boolean,
        "bool": .boolean,
    ]

    private mutating func parseArray() throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        let open = position
        position += 1
        skipWhitespace()
        if peek == "]" { throw error("expected the element type inside '[]'", at: position) }
        guard peek != nil else { throw error("unclosed '['", at: open) }
        var items = try parseType()
        try parseDescription(into: &items)
        skipWhitespace()
        guard peek == "]" else {
            if peek == nil { throw error("unclosed '['", at: open) }
            throw error("expected ']' after the element type", at: position)
        }
        position += 1
        return GeminiSchema(type: .array, items: items)
    }

    private mutating func parseObject() throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        let open = position
        position += 1
        var properties = GeminiSchemaProperties()
        var required: [String] = []
        skipWhitespace()
        if peek == "}" { throw error("an object needs at least one property", at: position) }
        while true {
            skipWhitespace()
            guard let next = peek else { throw error("unclosed '{'", at: open) }
            if next == "}", !properties.isEmpty {
                position += 1
                break
            }
            let nameStart = position
            let name = try parsePropertyName()
            if properties[name] != nil {
                throw error("duplicate property \(quotedWord(name))", at: nameStart)
            }
            skipBlanks()
            var optional = false
            if peek == "?" {
                optional = true
                position += 1
                skipBlanks()
            }
            guard peek == ":" else { throw error("expected ':' after property name", at: position) }
            position += 1
            skipWhitespace()
            var schema = try parseType()
            try parseDescription(into: &schema)
            properties[name] = schema
            if !optional { required.append(name) }
            // A separator: a comma, or a line break.
            var sawNewline = false
            while let character = peek, character.isWhitespace {
                if character.isNewline { sawNewline = true }
                position += 1
            }
            if peek == "," {
                position += 1
            } else if peek == "}" || peek == nil {
                continue
            } else if !sawNewline {
                throw error("expected ',' or '}' after property \(quotedWord(name))", at: position)
            }
        }
        return GeminiSchema(
            type: .object, properties: properties, required: required,
            propertyOrdering: properties.names)
    }

    private mutating func parsePropertyName() throws(GeminiSchemaSyntaxError) -> String {
        guard let next = peek else { throw error("expected a property name", at: position) }
        if next == "\"" || next == "'" {
            let start = position
            let name = try parseQuoted()
            if name.isEmpty { throw error("a property name cannot be empty", at: start) }
            return name
        }
        let name = readWord()
        if name.isEmpty { throw error("expected a property name, got \(quoted(next))", at: position) }
        return name
    }

    /// A quoted description on the same line, if any, stored in `schema.description`; an empty
    /// or blank one (`""`) says nothing and is left out, as the concise syntax leaves out an
    /// empty one.
    private mutating func parseDescription(into schema: inout GeminiSchema) throws(GeminiSchemaSyntaxError) {
        let save = position
        skipBlanks()
        guard peek == "\"" || peek == "'" else {
            position = save
            return
        }
        let description = try parseQuoted()
        if !description.allSatisfy(\.isWhitespace) { schema.description = description }
    }

    // MARK: Lexing

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipWhitespace() {
        while let character = peek, character.isWhitespace { position += 1 }
    }

    /// Skips spaces and tabs, not line breaks.
    private mutating func skipBlanks() {
        while let character = peek, character.isWhitespace, !character.isNewline { position += 1 }
    }

    private mutating func readWord() -> String {
        var word = ""
        while let character = peek,
            character.isLetter || character.isNumber || character == "_" || character == "-"
        {
            word.append(character)
            position += 1
        }
        return word
    }

    private mutating func parseQuoted() throws(GeminiSchemaSyntaxError) -> String {
        let open = position
        guard let quote = peek else { throw error("expected a quoted string", at: position) }
        position += 1
        var text = ""
        while true {
            guard let character = peek else { throw error("unterminated string", at: open) }
            position += 1
            if character == quote { return text }
            guard quote == "\"", character == "\\" else {
                text.append(character)
                continue
            }
            guard let escape = peek else { throw error("unterminated string", at: open) }
            switch escape {
            case "\"", "\\", "/": text.append(escape)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "u":
                let digits = String(characters[(position + 1)..<min(position + 5, characters.count)])
                guard digits.count == 4, let code = UInt32(digits, radix: 16),
                    let scalar = Unicode.Scalar(code)
                else { throw error("invalid \\u escape (expected 4 hex digits)", at: position - 1) }
                text.unicodeScalars.append(scalar)
                position += 4
            default: throw error("invalid escape '\\\(escape)'", at: position - 1)
            }
            position += 1
        }
    }

    // MARK: Errors

    private func quoted(_ character: Character) -> String {
        character.isNewline ? "line break" : "'\(character)'"
    }

    private func quotedWord(_ word: String) -> String { JSONValueText.quotedWord(word) }

    private func error(_ message: String, at index: Int) -> GeminiSchemaSyntaxError {
        SchemaTextLocation.error(message, at: index, in: characters)
    }
}

/// Line and column of a character index, for syntax errors.
enum SchemaTextLocation {
    static func error(_ message: String, at index: Int, in characters: [Character]) -> GeminiSchemaSyntaxError
    {
        var line = 1
        var column = 1
        for character in characters.prefix(index) {
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        let multiline = characters.contains { $0.isNewline }
        return GeminiSchemaSyntaxError(message: message, line: line, column: column, isMultiline: multiline)
    }
}
