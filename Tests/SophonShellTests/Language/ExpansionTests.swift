import SophonCore
import Testing

@testable import SophonShell

/// `$name`, `${name.path}` and how values read inside words (docs/language.md).
@Suite struct ExpansionTests {
    static let variables: [String: JSONValue] = [
        "s": .string("text"),
        "n": .integer(3),
        "f": .number(JSONNumber(text: "2.50")!),
        "b": .bool(true),
        "z": .null,
        "a": .array([.integer(1), .string("x")]),
        "o": .object([
            JSONMember("a", .array([.integer(1), .object([JSONMember("b", .string("deep"))])])),
            JSONMember("k", .string("v")),
        ]),
        "q": .string(#""a b" $s # c"#),
    ]

    private func expandedWords(_ arguments: String) throws -> [String] {
        guard let command = LanguageTesting.command("echo " + arguments) else {
            throw ExpansionTestFailure(text: LanguageTesting.error("echo " + arguments))
        }
        let expander = LanguageTesting.expander(Self.variables)
        return try command.arguments.map { word in try expander.text(of: word) }
    }

    struct ExpansionTestFailure: Error {
        let text: String
    }

    static let textCases: [(String, [String])] = [
        // Strings expand to their text; numbers, booleans, null to JSON text (literal kept).
        ("$s", ["text"]),
        (#""$s!""#, ["text!"]),
        ("$n $f $b $z", ["3", "2.50", "true", "null"]),
        // Objects and arrays expand to compact JSON.
        ("$a", [#"[1,"x"]"#]),
        ("$o", [#"{"a":[1,{"b":"deep"}],"k":"v"}"#]),
        // Paths only inside braces.
        ("${o.a[1].b} ${o.k} ${a[1]}", ["deep", "v", "x"]),
        ("$s.y", ["text.y"]),
        // No expansion in single quotes or after a backslash.
        (#"'$s' \$s "\$s""#, ["$s", "$s", "$s"]),
        // Expansion never splits and is never lexed again.
        ("$q", [#""a b" $s # c"#]),
        ("x${s}y$n", ["xtexty3"]),
    ]

    @Test(arguments: textCases)
    func text(arguments: String, expected: [String]) throws {
        #expect(try expandedWords(arguments) == expected)
    }

    static let errorCases: [(String, String)] = [
        ("$nope", "undefined variable 'nope'"),
        ("${nope.x}", "undefined variable 'nope'"),
        (#""a $nope""#, "undefined variable 'nope'"),
        ("${o.x}", "no field 'x' in ${o.x}"),
        ("${o.a[1].c}", "no field 'c' in ${o.a[1].c}"),
        ("${o.a[5]}", "no element [5] in ${o.a[5]} (${o.a} has 2 elements)"),
        ("${s.x}", "cannot read .x in ${s.x}: ${s} is a string, not an object"),
        ("${a[0].x}", "cannot read .x in ${a[0].x}: ${a[0]} is a number, not an object"),
        ("${o[0]}", "cannot read [0] in ${o[0]}: ${o} is an object, not an array"),
        ("${z[0]}", "cannot read [0] in ${z[0]}: ${z} is null, not an array"),
    ]

    @Test(arguments: errorCases)
    func errors(arguments: String, expected: String) {
        #expect {
            _ = try expandedWords(arguments)
        } throws: { error in
            (error as? ShellExpansionError)?.message == expected
        }
    }

    @Test func aWordThatIsOneUnquotedExpansionKeepsItsValue() throws {
        let expander = LanguageTesting.expander(Self.variables)
        let words = LanguageTesting.command(#"echo $n ${o.a} "$n" x$n"#)?.arguments ?? []
        let values = try words.map { try expander.jsonValue(of: $0) }
        #expect(
            values == [
                .integer(3), .array([.integer(1), .object([JSONMember("b", .string("deep"))])]),
                .string("3"), .string("x3"),
            ])
    }

    @Test func rawArgumentsExpand() throws {
        let expander = LanguageTesting.expander(Self.variables)
        let raw = LanguageTesting.command(#"ask cost is \$5 for $n, see ${o.k} # kept"#)?.rawArgument
        #expect(try raw.map { try expander.text(of: $0) } == "cost is $5 for 3, see v # kept")
    }

    @Test func referencesPrintAsWritten() {
        #expect(
            VariableReference("v", path: [.field("a"), .index(1), .field("b")]).description == "${v.a[1].b}")
        #expect(VariableReference("v").description == "$v")
        #expect(VariableReference("v", braced: true).description == "${v}")
    }
    /// `$last` kept as text (after `extract`) expands from its text: the same words as from
    /// its tree, and the tree is built only for a path into it (issue 20).
    @Test func lastKeptAsTextExpandsWithoutItsTree() throws {
        for compact in [#"{"a":[1,"x"],"b":null}"#, #""a \"q\" b""#, "2.50", "[]", "true"] {
            let kept = LazyJSONValue(compactText: compact)
            let expander = ShellExpander(
                lookup: { $0 == "last" ? kept.value : nil }, textLookup: { $0 == "last" ? kept : nil })
            let tree = LanguageTesting.expander(["last": LazyJSONValue(compactText: compact).value])
            let word = try #require(LanguageTesting.command("echo $last")?.arguments.first)
            #expect(try expander.text(of: word) == tree.text(of: word), "\(compact)")
            #expect(!kept.isParsed || compact.hasPrefix("\""), "\(compact)")
        }
        let kept = LazyJSONValue(compactText: #"{"a":[1,"x"]}"#)
        let expander = ShellExpander(
            lookup: { $0 == "last" ? kept.value : nil }, textLookup: { $0 == "last" ? kept : nil })
        let word = try #require(LanguageTesting.command("echo ${last.a[1]}")?.arguments.first)
        #expect(try expander.text(of: word) == "x")
        #expect(kept.isParsed)
    }
}
