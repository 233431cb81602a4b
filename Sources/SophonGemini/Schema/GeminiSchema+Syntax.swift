extension GeminiSchema {
    /// Parses a schema SPEC as the shell's `schema` command does: text starting with `{` or `[`
    /// (after whitespace) is the type syntax (``parseTypeSyntax(_:)``), anything else is `llm`'s
    /// concise syntax (``parseConciseSyntax(_:)``).
    /// - Throws: ``GeminiSchemaSyntaxError`` with the line and column of the first mistake.
    public static func parseSpec(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        let first = text.first { !$0.isWhitespace }
        if first == "{" || first == "[" { return try parseTypeSyntax(text) }
        return try parseConciseSyntax(text)
    }

    /// Parses the type syntax of docs/commands.md:
    /// `{ title: string, year: integer, rating?: number "0-10", tags: [string],
    /// status: "draft" | "final", author: { name: string } }`.
    ///
    /// - Properties are separated by `,` or line breaks; `name?` makes one optional (left out
    ///   of `required`); names are words of letters, digits, `_` and `-`, or quoted.
    /// - Types: `string`, `integer`, `number`, `boolean` (aliases `str`, `int`, `float`,
    ///   `double`, `bool`), `[T]` for arrays, `{ ... }` for objects, `"a" | "b"` for a string
    ///   enum; `T | null` makes a type nullable.
    /// - A quoted string after a type, on the same line, is its description.
    /// - Objects get `propertyOrdering` in the order written; empty objects are refused.
    /// - Throws: ``GeminiSchemaSyntaxError`` (`expected ':' after property name at column 12`).
    public static func parseTypeSyntax(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        var parser = SchemaTypeSyntaxParser(text)
        return try parser.parseSpec()
    }

    /// Parses `llm`'s concise syntax, `name, age int, bio: a short bio`, into an object whose
    /// fields are all required: fields separated by commas (or by line breaks when there are
    /// any), each `NAME [TYPE] [: DESCRIPTION]`, TYPE one of `str` (default), `int`, `float`,
    /// `bool` (or `string`, `integer`, `number`, `boolean`).
    /// - Throws: ``GeminiSchemaSyntaxError`` for an unknown type, a word after the type, a
    ///   repeated field or an empty spec.
    public static func parseConciseSyntax(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        try SchemaConciseSyntaxParser(text).parse()
    }
}
