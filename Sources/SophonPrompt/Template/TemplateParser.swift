import SophonCore

/// Builds ``TemplateNode`` trees from template text: blocks nested by name, `else` splitting a
/// block's body from its inverse, comments dropped.
public enum TemplateParser {
    /// The nodes of `source`.
    /// - Parameters:
    ///   - source: the template text.
    ///   - file: named in errors.
    ///   - lineOffset: lines before `source` in the file (the frontmatter).
    ///   - columnOffset: columns before `source` on its first line in the file (the blanks a
    ///     trimmed body lost).
    /// - Throws: ``PromptError`` (`.template`) for an unclosed or mismatched block.
    public static func parse(_ source: String, file: String, lineOffset: Int = 0, columnOffset: Int = 0)
        throws(PromptError)
        -> [TemplateNode]
    {
        let tokens = try TemplateLexer.tokens(
            source, file: file, lineOffset: lineOffset, columnOffset: columnOffset)
        var index = 0
        let (nodes, closing) = try level(tokens, &index, file: file)
        if let closing {
            throw PromptError(
                .template, "'{{/\(closing.content)}}' closes no block", file: file, line: closing.line,
                column: closing.column)
        }
        return nodes
    }

    /// Nodes up to a closing tag (returned) or the end.
    private static func level(_ tokens: [TemplateLexer.Token], _ index: inout Int, file: String)
        throws(PromptError) -> ([TemplateNode], TemplateLexer.Tag?)
    {
        var nodes: [TemplateNode] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let text): if !text.isEmpty { nodes.append(.text(text)) }
            case .tag(let tag):
                switch tag.sigil {
                case "!": continue
                case "/", "else": return (nodes, tag)
                case ">":
                    let partial = try call(tag.content, tag: tag, file: file)
                    let name: String
                    switch partial.head {
                    case .literal(let value): name = value.stringValue ?? ""
                    case .path(let parts, _, _): name = parts.joined(separator: "/")
                    case .subexpression: name = ""
                    }
                    nodes.append(
                        .partial(
                            name: name, context: partial.parameters.first, hash: partial.hash, line: tag.line,
                            column: tag.column))
                case "#", "^":
                    nodes.append(try block(tag, tokens, &index, file: file))
                default:
                    nodes.append(.mustache(try call(tag.content, tag: tag, file: file)))
                }
            }
        }
        return (nodes, nil)
    }

    /// The block opened by `tag`, through its `{{/name}}`; `{{else if x}}` chains nest and
    /// share the outer block's close.
    private static func block(
        _ tag: TemplateLexer.Tag, _ tokens: [TemplateLexer.Token], _ index: inout Int, file: String,
        closingName: String? = nil
    ) throws(PromptError) -> TemplateNode {
        var head = try call(tag.content, tag: tag, file: file)
        if tag.sigil == "^" {
            head = TemplateCall(
                head: .path(parts: ["unless"], data: false, up: 0), parameters: [head.head], hash: [:],
                line: tag.line, column: tag.column)
        }
        let name = closingName ?? tag.content.split(separator: " ").first.map(String.init) ?? ""
        let (body, end) = try level(tokens, &index, file: file)
        guard let end else {
            throw PromptError(
                .template, "'{{#\(name)}}' is not closed", file: file, line: tag.line, column: tag.column)
        }
        guard end.sigil == "else" else {
            try check(end, name: name, open: tag, file: file)
            return .block(head, body: body, inverse: [])
        }
        guard end.content.isEmpty else {
            var nested = end
            nested.sigil = "#"
            return .block(
                head, body: body, inverse: [try block(nested, tokens, &index, file: file, closingName: name)])
        }
        let (inverse, close) = try level(tokens, &index, file: file)
        try check(close, name: name, open: tag, file: file)
        return .block(head, body: body, inverse: inverse)
    }

    private static func check(
        _ close: TemplateLexer.Tag?, name: String, open: TemplateLexer.Tag, file: String
    )
        throws(PromptError)
    {
        guard let close, close.sigil == "/", close.content == name else {
            throw PromptError(
                .template, "'{{#\(name)}}' is not closed", file: file, line: open.line, column: open.column)
        }
    }

    /// A tag's content as a call: head, positional parameters, `key=value` pairs.
    static func call(_ content: String, tag: TemplateLexer.Tag, file: String) throws(PromptError)
        -> TemplateCall
    {
        let parts = try words(content, tag: tag, file: file)
        guard let first = parts.first else {
            throw PromptError(.template, "empty tag", file: file, line: tag.line, column: tag.column)
        }
        var parameters: [TemplateExpression] = []
        var hash: [String: TemplateExpression] = [:]
        for word in parts.dropFirst() {
            if let equals = word.firstIndex(of: "="), !word.hasPrefix("\""), !word.hasPrefix("'"),
                !word.hasPrefix("(")
            {
                hash[String(word[..<equals])] = try expression(
                    String(word[word.index(after: equals)...]), tag: tag, file: file)
            } else {
                parameters.append(try expression(word, tag: tag, file: file))
            }
        }
        return TemplateCall(
            head: try expression(first, tag: tag, file: file), parameters: parameters, hash: hash,
            line: tag.line,
            column: tag.column)
    }

    /// One word as an expression.
    static func expression(_ word: String, tag: TemplateLexer.Tag, file: String) throws(PromptError)
        -> TemplateExpression
    {
        if word.hasPrefix("(") {
            return .subexpression(try call(String(word.dropFirst().dropLast()), tag: tag, file: file))
        }
        if word.hasPrefix("\"") || word.hasPrefix("'") {
            return .literal(.string(String(word.dropFirst().dropLast())))
        }
        switch word {
        case "true": return .literal(.bool(true))
        case "false": return .literal(.bool(false))
        case "null": return .literal(.null)
        case "undefined": return .literal(.null)
        default: break
        }
        if let first = word.first, first.isNumber || (first == "-" && word.count > 1),
            let number = JSONNumber(text: word)
        {
            return .literal(.number(number))
        }
        var rest = Substring(word)
        let data = rest.hasPrefix("@")
        if data { rest = rest.dropFirst() }
        var up = 0
        while rest.hasPrefix("../") { up += 1; rest = rest.dropFirst(3) }
        if rest.hasPrefix("./") { rest = rest.dropFirst(2) }
        var parts = rest.split(whereSeparator: { $0 == "." || $0 == "/" }).map {
            $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : String($0)
        }
        if parts.first == "this" && !data { parts.removeFirst() }
        return .path(parts: parts, data: data, up: up)
    }

    /// Splits tag content at spaces outside quotes and parentheses.
    static func words(_ content: String, tag: TemplateLexer.Tag, file: String) throws(PromptError) -> [String]
    {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var depth = 0
        for character in content {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
                current.append(character)
            } else if character == "(" {
                depth += 1
                current.append(character)
            } else if character == ")" {
                depth -= 1
                current.append(character)
            } else if character.isWhitespace && depth == 0 {
                if !current.isEmpty { words.append(current); current = "" }
            } else {
                current.append(character)
            }
        }
        guard quote == nil, depth == 0 else {
            throw PromptError(
                .template, "unbalanced quote or parenthesis", file: file, line: tag.line, column: tag.column)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

/// One piece of a parsed Handlebars template (the subset docs/prompts.md names).
public indirect enum TemplateNode: Sendable, Hashable {
    /// Literal text, copied as is.
    case text(String)
    /// `{{expr}}` or `{{{expr}}}`: a value or a helper call, printed without HTML escaping.
    case mustache(TemplateCall)
    /// `{{#name params}}body{{else}}inverse{{/name}}`.
    case block(TemplateCall, body: [TemplateNode], inverse: [TemplateNode])
    /// `{{> name context key=value}}`: the partial over `context` (else the current one) with the
    /// `key=value` members added; the tag's location is for the unknown-partial error.
    case partial(
        name: String, context: TemplateExpression?, hash: [String: TemplateExpression], line: Int, column: Int
    )
}

/// A call in a tag: a path or helper name with positional and `key=value` parameters.
public struct TemplateCall: Sendable, Hashable {
    /// The first expression (a helper's name is a one-part path).
    public var head: TemplateExpression
    /// Positional parameters.
    public var parameters: [TemplateExpression]
    /// `key=value` parameters, in order.
    public var hash: [String: TemplateExpression]
    /// The tag's 1-based line.
    public var line: Int
    /// The tag's 1-based column.
    public var column: Int
}

/// An expression inside a tag.
public indirect enum TemplateExpression: Sendable, Hashable {
    /// A path: `name`, `a.b`, `this`, `../x`, `@index`, `@root.x` (`data` for `@`; `up` counts `../`).
    case path(parts: [String], data: Bool, up: Int)
    /// A string, number, boolean or null literal.
    case literal(JSONValue)
    /// `(helper params)`.
    case subexpression(TemplateCall)

    /// The single name of a one-part, non-data path (a helper name), else `nil`.
    var simpleName: String? {
        if case .path(let parts, false, 0) = self, parts.count == 1 { return parts[0] }
        return nil
    }
}
