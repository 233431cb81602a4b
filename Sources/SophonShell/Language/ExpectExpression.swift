import Foundation
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
            // A close operator that shares a character (`=` -> `==`, `contain` -> `contains`;
            // not `~` -> `<`, one edit apart but nothing alike). The Language folder stands
            // alone (the fuzz harness compiles it by itself): the rule is SophonCore's.
            let close = EditDistance.suggestions(for: word, among: operators).first {
                $0.contains(where: word.contains)
            }
            return "unknown operator '\(word)'" + (close.map { " (did you mean '\($0)'?)" } ?? "")
                + "; expected one of \(operators.joined(separator: ", "))"
        case .invalidRegex(let pattern, let reason):
            return "invalid regular expression '\(pattern)': \(reason)"
        case .expansion(let error): return error.message
        }
    }

    /// The same as ``message``.
    var description: String { message }
}

/// Evaluates `expect` expressions; pure apart from the validation hook.
///
/// Comparison rules (docs/language.md):
/// - When both sides' texts (``ExpectOperand/text``) are JSON number literals (`10`, `10.0`,
///   `1e3`), they compare as exact decimal numbers: `10 == 10.0`, `1e3 == 1000`. A string value
///   `"42"` reads as its text `42`, like it would expand.
/// - Otherwise, when both sides are values and one is an array or an object, `==` compares them
///   as JSON values (``JSONValue/isEqualAsValue(to:)``: members in any order, numbers by value).
/// - Otherwise both sides compare as text, by Unicode scalar values (so `é` precomposed and
///   `e` + combining accent differ).
/// - `contains` with an array value on the left holds when some element equals the right side
///   by the rules above: for `["red"]`, `contains red`, `contains "red"` and `contains $r`
///   (`$r` = `"red"`) hold; for `[3]`, `contains 3.0` holds. Otherwise it is a substring test
///   on the texts.
/// - `matches` searches the left text for the right text as an ICU regular expression.
enum ExpectEvaluator {
    /// Evaluates a parsed expression.
    ///
    /// - Parameters:
    ///   - expression: the parsed `expect`.
    ///   - expander: resolves references in the operands.
    ///   - validate: checks `$last` against the current schema for `expect valid`; the caller
    ///     decides the message (for example the violations, or that no schema is set).
    /// - Throws: ``ExpectError`` for an unresolvable reference or an invalid regex.
    static func evaluate(
        _ expression: ExpectExpression, expander: ShellExpander, validate: () -> ExpectOutcome
    ) throws(ExpectError) -> ExpectOutcome {
        switch expression {
        case .valid:
            return validate()
        case .plugin(_, let op, _):
            // Evaluated by the plugin that owns the operator (ExpectCommand), never here.
            throw .unknownOperator(op, among: ExpectOperator.allCases.map(\.rawValue))
        case .comparison(let leftWord, let op, let rightWords):
            let left: ExpectOperand
            let right: ExpectOperand
            do throws(ShellExpansionError) {
                left = try operand([leftWord], expander: expander)
                right = try operand(rightWords, expander: expander)
            } catch {
                throw .expansion(error)
            }
            return try compare(left, op, right)
        }
    }

    /// One word that is exactly one unquoted expansion keeps its value; else the words' text.
    static func operand(
        _ words: [ShellWord], expander: ShellExpander
    ) throws(ShellExpansionError) -> ExpectOperand {
        if words.count == 1, let reference = words[0].singleExpansion {
            return .value(try expander.value(of: reference))
        }
        return .text(try expander.text(of: words))
    }

    /// Applies `op` to two operands.
    /// - Returns: ``ExpectOutcome/passed``, or ``ExpectOutcome/failed(message:)`` reading
    ///   `expected LEFT OP RIGHT` (operands shown by ``ExpectOperand/display``).
    /// - Throws: ``ExpectError/invalidRegex(pattern:reason:)`` for `matches` with a bad pattern.
    static func compare(
        _ left: ExpectOperand, _ op: ExpectOperator, _ right: ExpectOperand
    ) throws(ExpectError) -> ExpectOutcome {
        let holds: Bool
        switch op {
        case .equal: holds = equal(left, right)
        case .notEqual: holds = !equal(left, right)
        case .less: holds = order(left, right) < 0
        case .lessOrEqual: holds = order(left, right) <= 0
        case .greater: holds = order(left, right) > 0
        case .greaterOrEqual: holds = order(left, right) >= 0
        case .contains: holds = contains(left, right)
        case .matches: holds = try matches(left.text, pattern: right.text)
        }
        return holds ? .passed : .failed(message: "expected \(left.display) \(op.rawValue) \(right.display)")
    }

    /// Equality by the rules in the type's documentation.
    static func equal(_ left: ExpectOperand, _ right: ExpectOperand) -> Bool {
        if let order = numericOrder(left.text, right.text) { return order == 0 }
        if case .value(let leftValue) = left, case .value(let rightValue) = right,
            leftValue.isContainer || rightValue.isContainer
        {
            return leftValue.isEqualAsValue(to: rightValue)
        }
        return scalarOrder(left.text, right.text) == 0
    }

    /// -1, 0 or 1: numerically when both texts are numbers, else by Unicode scalar values.
    static func order(_ left: ExpectOperand, _ right: ExpectOperand) -> Int {
        numericOrder(left.text, right.text) ?? scalarOrder(left.text, right.text)
    }

    private static func contains(_ left: ExpectOperand, _ right: ExpectOperand) -> Bool {
        if case .value(.array(let elements)) = left {
            return elements.contains { equal(.value($0), right) }
        }
        let haystack = Array(left.text.unicodeScalars)
        let needle = Array(right.text.unicodeScalars)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    private static func matches(_ subject: String, pattern: String) throws(ExpectError) -> Bool {
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw .invalidRegex(pattern: pattern, reason: "not a valid ICU regular expression")
        }
        let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
        return regex.firstMatch(in: subject, range: range) != nil
    }

    /// The numeric order of two texts when both are JSON number literals, else `nil`.
    static func numericOrder(_ left: String, _ right: String) -> Int? {
        guard let a = JSONNumber(text: left), let b = JSONNumber(text: right) else { return nil }
        return a.compare(b)
    }

    /// Lexicographic order of Unicode scalar values: -1, 0 or 1.
    static func scalarOrder(_ left: String, _ right: String) -> Int {
        var a = left.unicodeScalars.makeIterator()
        var b = right.unicodeScalars.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x.value < y.value ? -1 : 1
            default: continue
            }
        }
    }
}

extension JSONValue {
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
