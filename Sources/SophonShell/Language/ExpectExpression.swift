import SophonCore

/// A parsed `expect` command (docs/language.md, "expect"): `expect A OP B` or `expect valid`.
///
/// A is one word; OP is one word naming an ``ExpectOperator``; B is the rest of the line, its
/// words joined by one space. An operand that is exactly one unquoted expansion keeps its JSON
/// value (`expect $tags contains red` tests the elements of an array); any other operand is
/// text.
enum ExpectExpression: Sendable, Hashable {
    /// `expect A OP B`.
    case comparison(left: ShellWord, operator: ExpectOperator, right: [ShellWord])
    /// `expect valid`: `$last` validates against the current schema.
    case valid
    /// `expect A OP WORDS...` with an operator a plugin adds (`similar`, `judge`).
    case plugin(left: ShellWord, operator: String, right: [ShellWord])

    /// Parses the words after `expect`.
    /// - Throws: ``ExpectError`` when the expression is empty, has no operator or no right
    ///   operand, or names an unknown operator.
    /// - Parameter pluginOperators: the operators plugins add (`similar`, `judge`).
    static func parse(
        _ arguments: some Collection<ShellWord>, pluginOperators: [String] = []
    ) throws(ExpectError) -> ExpectExpression {
        let words = Array(arguments)
        guard let first = words.first else { throw .missingExpression }
        if words.count == 1, !first.isQuoted, first.literalText == "valid" { return .valid }
        guard words.count >= 2 else { throw .missingOperator(after: first.description) }
        guard let spelling = words[1].literalText,
            ExpectOperator(rawValue: spelling) != nil || pluginOperators.contains(spelling)
        else {
            throw .unknownOperator(
                words[1].description, among: ExpectOperator.allCases.map(\.rawValue) + pluginOperators)
        }
        guard words.count >= 3 else { throw .missingRightOperand(after: spelling) }
        guard let op = ExpectOperator(rawValue: spelling) else {
            return .plugin(left: first, operator: spelling, right: Array(words[2...]))
        }
        return .comparison(left: first, operator: op, right: Array(words[2...]))
    }
}

/// The operators of `expect`.
enum ExpectOperator: String, Sendable, Hashable, CaseIterable {
    /// Equal: as numbers when both sides are numbers, else as JSON values or text.
    case equal = "=="
    /// Not equal.
    case notEqual = "!="
    /// Less than: as numbers when both sides are numbers, else text by Unicode scalar values.
    case less = "<"
    /// Less than or equal.
    case lessOrEqual = "<="
    /// Greater than.
    case greater = ">"
    /// Greater than or equal.
    case greaterOrEqual = ">="
    /// A substring of the left text, or an element when the left side is an array value.
    case contains
    /// An unanchored regular expression search (ICU syntax, `NSRegularExpression`).
    case matches
}

/// One side of an `expect` comparison.
enum ExpectOperand: Sendable, Hashable {
    /// The value of a word that was exactly one unquoted expansion.
    case value(JSONValue)
    /// Text: a word or words, expanded and joined by one space.
    case text(String)

    /// The text this operand compares as: a string value's text, any other value as compact
    /// JSON, text as is.
    var text: String {
        switch self {
        case .value(let value): ShellExpander.text(of: value)
        case .text(let text): text
        }
    }

    /// How the operand is shown in a failure message: numbers bare, strings and text quoted as
    /// JSON strings, other values as compact JSON; cut to 200 characters with `…`.
    var display: String {
        let shown: String
        switch self {
        case .value(.string(let text)), .text(let text):
            shown = JSONNumber.isValidSyntax(text) ? text : JSONValue.string(text).compactText
        case .value(let value):
            shown = value.compactText
        }
        return TextExcerpt.prefix(shown, limit: 200)
    }
}

/// The result of an `expect` that could be evaluated.
enum ExpectOutcome: Sendable, Equatable {
    /// The expectation holds.
    case passed
    /// It does not; the message reads like `expected 2016 == 2017`.
    case failed(message: String)
}

/// A malformed `expect`, which counts as a failed expectation (docs/language.md).
enum ExpectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `expect` with nothing after it.
    case missingExpression
    /// `expect A` with no operator.
    case missingOperator(after: String)
    /// `expect A OP` with no right side.
    case missingRightOperand(after: String)
    /// The second word is not an operator (the word, and the operators there are).
    case unknownOperator(String, among: [String])
    /// `matches` with a pattern `NSRegularExpression` refuses.
    case invalidRegex(pattern: String, reason: String)
    /// An operand refers to an undefined variable or a missing path.
    case expansion(ShellExpansionError)

    /// The message.
    var message: String {
        let usage = "usage: expect A OP B, or expect valid"
        switch self {
        case .missingExpression: return "missing expression; \(usage)"
        case .missingOperator(let left): return "missing operator after '\(left)'; \(usage)"
        case .missingRightOperand(let op): return "missing right operand after '\(op)'; \(usage)"
        case .unknownOperator(let word, let operators):
            return "unknown operator '\(word)'; expected one of \(operators.joined(separator: ", "))"
        case .invalidRegex(let pattern, let reason):
            return "invalid regular expression '\(pattern)': \(reason)"
        case .expansion(let error): return error.message
        }
    }

    /// The same as ``message``.
    var description: String { message }
}
