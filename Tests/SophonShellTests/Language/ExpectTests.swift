import SophonCore
import Testing

@testable import SophonShell

/// `expect A OP B` and `expect valid` (docs/language.md, "expect").
@Suite struct ExpectTests {
    static let variables: [String: JSONValue] = [
        "last": .object([
            JSONMember("year", .integer(2016)), JSONMember("title", .string("Dune")),
        ]),
        "tags": .array([.string("red")]),
        "nums": .array([.integer(1), .number(JSONNumber(text: "2.5")!)]),
        "n": .integer(10),
        "s": .string("42"),
        "b": .bool(true),
        "obj": .object([JSONMember("a", .integer(1))]),
        "obj2": .object([JSONMember("a", .number(JSONNumber(text: "1.0")!))]),
    ]

    /// "pass", the failure message, or "error: MESSAGE".
    private func run(_ line: String, validation: ExpectOutcome = .passed) -> String {
        guard let command = LanguageTesting.command(line) else {
            return "parse " + LanguageTesting.error(line)
        }
        do {
            let expression = try ExpectExpression.parse(command.arguments)
            let outcome = try ExpectEvaluator.evaluate(
                expression, expander: LanguageTesting.expander(Self.variables), validate: { validation })
            switch outcome {
            case .passed: return "pass"
            case .failed(let message): return message
            }
        } catch {
            return "error: \(error.message)"
        }
    }

    static let cases: [(String, String)] = [
        // Numbers compare as numbers when both sides are JSON numbers.
        ("expect ${last.year} == 2016", "pass"),
        ("expect ${last.year} == 2017", "expected 2016 == 2017"),
        ("expect 10 == 10.0", "pass"),
        ("expect 1e3 == 1000", "pass"),
        ("expect 1E+3 == 1000.000", "pass"),
        ("expect $n == 10.00", "pass"),
        ("expect -0 == 0", "pass"),
        ("expect 0.1 < 0.10000000000000001", "pass"),
        (
            "expect 12345678901234567890 == 12345678901234567891",
            "expected 12345678901234567890 == 12345678901234567891"
        ),
        ("expect 1e400 > 1e399", "pass"),
        ("expect -2 < -1", "pass"),
        ("expect 9 < 10", "pass"),
        ("expect 2 <= 2.0", "pass"),
        ("expect 3 >= 4", "expected 3 >= 4"),
        ("expect 5 != 5.0", "expected 5 != 5.0"),
        // A string value reads as its text, so "42" compares as a number.
        ("expect $s == 42.0", "pass"),
        // Otherwise text, by Unicode scalar values.
        ("expect 9 < 10a", #"expected 9 < "10a""#),
        ("expect abc < abd", "pass"),
        ("expect B < a", "pass"),
        ("expect b > a", "pass"),
        ("expect a >= a", "pass"),
        ("expect ${last.title} == Dune", "pass"),
        ("expect ${last.title} != Dune", #"expected "Dune" != "Dune""#),
        ("expect ${last.title} == The   Dune", #"expected "Dune" == "The Dune""#),
        ("expect $b == true", "pass"),
        (#"expect café == "cafe\u{301}""#, #"expected "café" == "café""#),
        // JSON values compare structurally, numbers by value; text compares with compact JSON.
        ("expect $obj == $obj2", "pass"),
        (#"expect $obj == '{"a":1}'"#, "pass"),
        (#"expect $obj == '{"a": 1}'"#, #"expected {"a":1} == "{\"a\": 1}""#),
        // contains: an element of an array value, else a substring.
        (#"expect $tags contains "red""#, "pass"),
        ("expect $tags contains red", "pass"),
        ("expect $tags contains green", #"expected ["red"] contains "green""#),
        ("expect $tags contains re", #"expected ["red"] contains "re""#),
        (#"expect "$tags" contains re"#, "pass"),
        ("expect $nums contains 2.50", "pass"),
        ("expect ${last.title} contains un", "pass"),
        ("expect ${last.title} contains nu", #"expected "Dune" contains "nu""#),
        ("expect $last contains ${last.title}", "pass"),
        // matches: an unanchored ICU regex search.
        ("expect ${last.title} matches un", "pass"),
        ("expect ${last.title} matches '^D.n[a-z]$'", "pass"),
        ("expect ${last.title} matches ^x", #"expected "Dune" matches "^x""#),
        (#"expect ${last.year} matches '^\d{4}$'"#, "pass"),
        // Malformed expectations are errors.
        ("expect", "error: missing expression; usage: expect A OP B, or expect valid"),
        ("expect x", "error: missing operator after 'x'; usage: expect A OP B, or expect valid"),
        ("expect x ==", "error: missing right operand after '=='; usage: expect A OP B, or expect valid"),
        (
            "expect x ~ y",
            "error: unknown operator '~'; expected one of ==, !=, <, <=, >, >=, contains, matches"
        ),
        (
            "expect 1 = 1",
            "error: unknown operator '=' (did you mean '=='?); expected one of ==, !=, <, <=, >, >=, contains, matches"
        ),
        (
            "expect x contain y",
            "error: unknown operator 'contain' (did you mean 'contains'?); expected one of ==, !=, <, <=, >, >=, contains, matches"
        ),
        ("expect x matches '('", "error: invalid regular expression '(': not a valid ICU regular expression"),
        ("expect $nope == 1", "error: undefined variable 'nope'"),
        ("expect 1 == ${last.nope}", "error: no field 'nope' in ${last.nope}"),
    ]

    @Test(arguments: cases)
    func expectations(line: String, expected: String) {
        #expect(run(line) == expected)
    }

    @Test func validUsesTheHook() {
        #expect(run("expect valid") == "pass")
        #expect(
            run("expect valid", validation: .failed(message: "$.year: expected integer"))
                == "$.year: expected integer")
        // `valid` followed by an operator is an ordinary comparison.
        #expect(run("expect valid == valid") == "pass")
        #expect(
            run("expect valid extra")
                == "error: unknown operator 'extra'; expected one of ==, !=, <, <=, >, >=, contains, matches")
    }

    @Test func longOperandsAreCutInMessages() {
        let long = String(repeating: "x", count: 250)
        let outcome = try? ExpectEvaluator.compare(.text(long), .equal, .text("y"))
        #expect(
            outcome == .failed(message: "expected \"\(String(repeating: "x", count: 199))…" + " == \"y\""))
    }

    @Test(arguments: [
        ("1", "1.0", 0), ("1e3", "1000", 0), ("-1", "1", -1), ("0.5", "0.25", 1), ("-0.5", "-0.25", -1),
        ("100", "99.999", 1), ("0", "-0.0", 0), ("1e-400", "0", 1), ("-1e400", "-1e399", -1),
    ])
    func exactDecimalOrder(left: String, right: String, expected: Int) {
        #expect(ExpectEvaluator.numericOrder(left, right) == expected)
    }

    /// Containers compare by ``JSONValue/isEqualAsValue(to:)``, the rule tape replay uses:
    /// members in any order, numbers as exact decimals.
    @Test(arguments: [
        (#"{"a":1,"b":2}"#, #"{"b":2.0,"a":1}"#, true),
        (#"{"a":1,"a":3}"#, #"{"a":3}"#, true),
        ("[1,2]", "[2,1]", false),
        (
            "[123456789012345678901234567890123456789012]", "[123456789012345678901234567890123456789013]",
            false
        ),
    ])
    func containersCompareAsValues(left: String, right: String, expected: Bool) throws {
        let a = ExpectOperand.value(try JSONValue(parsing: left))
        let b = ExpectOperand.value(try JSONValue(parsing: right))
        #expect(ExpectEvaluator.equal(a, b) == expected)
    }

    @Test func pluginOperatorsParseAndAreListed() throws {
        let words = [ShellWord.literal("a"), .literal("similar"), .literal("b"), .literal("0.7")]
        #expect(
            try ExpectExpression.parse(words, pluginOperators: ["similar", "judge"])
                == .plugin(left: .literal("a"), operator: "similar", right: [.literal("b"), .literal("0.7")]))
        #expect(
            throws: ExpectError.unknownOperator(
                "similar", among: ["==", "!=", "<", "<=", ">", ">=", "contains", "matches"])
        ) { try ExpectExpression.parse(words) }
        #expect(
            ExpectError.unknownOperator("~", among: ["==", "judge"]).message
                == "unknown operator '~'; expected one of ==, judge")
        #expect(throws: ExpectError.missingRightOperand(after: "judge")) {
            _ = try ExpectExpression.parse([.literal("a"), .literal("judge")], pluginOperators: ["judge"])
        }
    }
}
