import SophonCore

/// One piece of a parsed Handlebars template (the subset PRODUCT §12 names).
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
