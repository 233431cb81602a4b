import Foundation
import SophonCore

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
