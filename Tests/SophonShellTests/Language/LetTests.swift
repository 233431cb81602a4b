import SophonCore
import Testing

@testable import SophonShell

/// `let NAME = REST` and its three rules (docs/language.md).
@Suite struct LetTests {
    static let variables: [String: JSONValue] = [
        "last": .object([JSONMember("year", .integer(2016)), JSONMember("title", .string("Dune"))]),
        "tags": .array([.string("red")]),
        "who": .string("Ada"),
    ]

    private func assign(_ line: String) throws -> (name: String, rule: String, value: JSONValue) {
        guard let assignment = LanguageTesting.command(line)?.assignment else {
            throw LetTestFailure(text: LanguageTesting.error(line))
        }
        let rule =
            switch assignment.value {
            case .json: "1"
            case .block: "2"
            case .words: "3"
            }
        let value = try assignment.evaluate(
            expander: LanguageTesting.expander(Self.variables), parseJSON: ShellParser.strictJSON)
        return (assignment.name, rule, value)
    }

    struct LetTestFailure: Error {
        let text: String
    }

    static let cases: [(String, String, JSONValue)] = [
        // Rule 1: REST as typed (less a trailing comment) is JSON; no expansion inside it.
        ("let n = 3", "1", .integer(3)),
        ("let v = {\"a\": [1, 2]}", "1", .object([JSONMember("a", .array([.integer(1), .integer(2)]))])),
        ("let s = \"42\"", "1", .string("42")),
        ("let n = 3 # three", "1", .integer(3)),
        ("let s = \"a # b\" # c", "1", .string("a # b")),
        ("let s = \"$who\"", "1", .string("$who")),
        ("let q = \"${last.year}\" ", "1", .string("${last.year}")),
        (#"let e = "a\u0041""#, "1", .string("aA")),
        ("let b = true", "1", .bool(true)),
        ("let z = null", "1", .null),
        ("let f = 1.50", "1", .number(JSONNumber(text: "1.50")!)),
        ("let big = 12345678901234567890", "1", .number(JSONNumber(text: "12345678901234567890")!)),
        ("let p = [1, \"two\"]", "1", .array([.integer(1), .string("two")])),
        // Rule 2: one `"""` block; JSON when its value is JSON, else a string.
        (
            "let j = \"\"\"\n  {\"year\": ${last.year}}\n  \"\"\"", "2",
            .object([JSONMember("year", .integer(2016))])
        ),
        ("let t = \"\"\"\n  hello $who\n  and \\$5\n  \"\"\"", "2", .string("hello Ada\nand $5")),
        // Rule 3: words. One word that is exactly one expansion copies the value and its type.
        ("let y = ${last.year}", "3", .integer(2016)),
        ("let title = ${last.title}", "3", .string("Dune")),
        ("let copy = $tags", "3", .array([.string("red")])),
        ("let who = Ada Lovelace", "3", .string("Ada Lovelace")),
        ("let who = Ada   Lovelace # the first programmer", "3", .string("Ada Lovelace")),
        ("let t = '{\"a\":1}'", "3", .string("{\"a\":1}")),
        ("let m = year ${last.year}", "3", .string("year 2016")),
        ("let x = ${last.year}x", "3", .string("2016x")),
        ("let s = \"a\" \"b\"", "3", .string("a b")),
        ("let u = 'it''s'", "3", .string("its")),
        ("let w = Ada \\\n  Lovelace", "3", .string("Ada Lovelace")),
    ]

    @Test(arguments: cases)
    func rules(line: String, rule: String, expected: JSONValue) throws {
        let result = try assign(line)
        #expect(result.rule == rule)
        #expect(result.value == expected)
    }

    /// The same table through the parser the shell uses, SophonCore's strict one.
    @Test(arguments: cases)
    func rulesWithTheStrictParser(line: String, rule: String, expected: JSONValue) throws {
        let parser = ShellParser()
        guard
            let assignment = parser.parse(ShellSource(name: "t", text: line)).first.flatMap({
                try? $0.result.get()
            })?
            .assignment
        else {
            Issue.record("no assignment in \(line)")
            return
        }
        let value = try assignment.evaluate(
            expander: LanguageTesting.expander(Self.variables), parseJSON: ShellParser.strictJSON)
        #expect(value == expected)
        switch assignment.value {
        case .json: #expect(rule == "1")
        case .block: #expect(rule == "2")
        case .words: #expect(rule == "3")
        }
    }

    @Test func theNameIsKept() throws {
        #expect(try assign("let my_var2 = 1").name == "my_var2")
        #expect(LanguageTesting.command("let x = 1")?.words.map(\.description) == ["let", "x", "="])
    }

    static let errorCases: [(String, String)] = [
        ("let", "1:4: missing variable name; usage: let NAME = VALUE"),
        ("let 1x = 3", "1:5: invalid variable name '1x'; usage: let NAME = VALUE"),
        ("let x=3", "1:5: invalid variable name 'x=3'; put blanks around '='; usage: let NAME = VALUE"),
        ("let \"x\" = 3", "1:5: invalid variable name 'x'; usage: let NAME = VALUE"),
        ("let x 3", "1:7: expected '=' after the variable name; usage: let NAME = VALUE"),
        ("let x", "1:6: expected '=' after the variable name; usage: let NAME = VALUE"),
        ("let x =", "1:8: missing value after '='; usage: let NAME = VALUE"),
        ("let x =   # nothing", "1:11: missing value after '='; usage: let NAME = VALUE"),
        (
            "let x = \"a\\q\" b",
            #"1:11: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
    ]

    @Test(arguments: errorCases)
    func errors(line: String, expected: String) {
        #expect(LanguageTesting.error(line) == expected)
    }

    @Test func anUndefinedVariableFailsAtRunTime() {
        #expect(throws: ShellExpansionError.undefinedVariable(name: "nope")) {
            _ = try assign("let x = $nope")
        }
    }

    @Test(arguments: [
        ("3 # c", "3"),
        ("\"a # b\"", "\"a # b\""),
        ("\"a\\\" # b\" # c", "\"a\\\" # b\""),
        ("a#b", "a#b"),
        ("# all comment", ""),
        ("  [1]  ", "[1]"),
    ])
    func trailingCommentIsCutOutsideJSONStrings(rest: String, expected: String) {
        #expect(LetAssignment.restWithoutComment(rest) == expected)
    }
}
