import SophonCore
import Testing

@testable import SophonShell

/// Words, quotes, escapes, comments and `"""` blocks (docs/language.md, "Words and quotes").
@Suite struct LexerTests {
    static let wordCases: [(String, [String])] = [
        // Blanks split words; tabs are blanks.
        ("echo hello world", [#""echo""#, #""hello""#, #""world""#]),
        ("echo\ta\t\tb", [#""echo""#, #""a""#, #""b""#]),
        // `#` starts a comment only at the start of a word outside quotes.
        ("echo a#b", [#""echo""#, #""a#b""#]),
        ("echo a #b c", [#""echo""#, #""a""#]),
        (#"echo "a # b" # c"#, [#""echo""#, #"quoted "a # b""#]),
        (#"echo '#x'"#, [#""echo""#, ##"quoted "#x""##]),
        // Single quotes: literal, no escapes, no expansion, may span lines.
        (#"echo 'it''s'"#, [#""echo""#, #"quoted "its""#]),
        (#"echo 'a $x \n \'"#, [#""echo""#, #"quoted "a $x \\n \\""#]),
        ("echo 'multi\nline'", [#""echo""#, #"quoted "multi\nline""#]),
        ("echo 'a\\\nb'", [#""echo""#, #"quoted "a\\\nb""#]),
        // Double quotes: escapes and expansion, may span lines.
        (#"echo "a $x b""#, [#""echo""#, #"quoted "a " + $x + " b""#]),
        (#"echo "\"\\\n\t\$\u{41}\u{1F600}""#, [#""echo""#, #"quoted "\"\\\n\t$A😀""#]),
        ("echo \"multi\nline\"", [#""echo""#, #"quoted "multi\nline""#]),
        ("echo \"a\\\nb\"", [#""echo""#, #"quoted "ab""#]),
        (#"echo """#, [#""echo""#, "quoted (empty)"]),
        (#"echo "$x""#, [#""echo""#, "quoted $x"]),
        (#"echo x"y"'z'"#, [#""echo""#, #"quoted "xyz""#]),
        // Bare backslashes quote a blank, a quote, `$`, `#` or a backslash.
        (
            ##"echo \$x \#y a\ b a\\b \'q\""##,
            [
                #""echo""#, #"quoted "$x""#, ##"quoted "#y""##, #"quoted "a b""#, #"quoted "a\\b""#,
                #"quoted "'q\"""#,
            ]
        ),
        // Before anything else the backslash stays: a regular expression needs no quotes.
        (#"expect $y matches ^\d{4}\.\s$"#, [#""expect""#, "$y", #""matches""#, #""^\\d{4}\\.\\s$""#]),
        // A backslash-newline is removed.
        ("echo a\\\nb", [#""echo""#, #""ab""#]),
        ("echo a \\\n  b", [#""echo""#, #""a""#, #""b""#]),
        // Expansions: names, braces, paths only inside braces.
        ("echo $x.y", [#""echo""#, #"$x + ".y""#]),
        ("echo ${v.a[1].b}", [#""echo""#, "${v.a[1].b}"]),
        ("echo ${name}", [#""echo""#, "${name}"]),
        ("echo pre${x}post $a$b $_x1", [#""echo""#, #""pre" + ${x} + "post""#, "$a + $b", "$_x1"]),
        ("echo ${v.key-with-dash[0]}", [#""echo""#, "${v.key-with-dash[0]}"]),
        // A `$` not followed by a name or `{` is a literal `$`.
        ("echo $ $1 a$ $-", [#""echo""#, #""$""#, #""$1""#, #""a$""#, #""$-""#]),
        // Non-ASCII text passes through.
        (#"echo café "日本""#, [#""echo""#, #""café""#, #"quoted "日本""#]),
    ]

    @Test(arguments: wordCases)
    func words(input: String, expected: [String]) {
        #expect(LanguageTesting.renderedWords(input) == expected)
    }

    static let blockCases: [(String, [String])] = [
        // Indentation of the closing delimiter is stripped; the delimiters' newlines are not
        // part of the value.
        ("echo \"\"\"\n  hello\n    world\n  \"\"\"", [#""echo""#, #"block "hello\n  world""#]),
        ("echo \"\"\"  \n\tx\n\t\"\"\"", [#""echo""#, #"block "x""#]),
        ("echo \"\"\"\nx\n\"\"\"", [#""echo""#, #"block "x""#]),
        ("echo \"\"\"\n\"\"\"", [#""echo""#, "block (empty)"]),
        // Escapes and `$` apply as in double quotes; `\"""` is a literal `"""`.
        ("echo \"\"\"\n  a $x\n  \\\"\"\"\n  \"\"\"", [#""echo""#, #"block "a " + $x + "\n\"\"\"""#]),
        // Blank lines, even shorter than the indentation, are kept as empty lines.
        ("echo \"\"\"\n  a\n\n \n  b\n  \"\"\"", [#""echo""#, #"block "a\n\n\nb""#]),
        // A backslash at the end of a content line joins the next line.
        ("echo \"\"\"\n  a \\\n  b\n  \"\"\"", [#""echo""#, #"block "a b""#]),
        // Quotes and `#` inside are ordinary text.
        ("echo \"\"\"\n  {\"a\": 'b'} # c\n  \"\"\"", [#""echo""#, #"block "{\"a\": 'b'} # c""#]),
        // The command goes on after the closing delimiter.
        ("echo \"\"\"\n  x\n  \"\"\" after # note", [#""echo""#, #"block "x""#, #""after""#]),
    ]

    @Test(arguments: blockCases)
    func blocks(input: String, expected: [String]) {
        #expect(LanguageTesting.renderedWords(input) == expected)
    }

    static let errorCases: [(String, String)] = [
        (
            #"echo "a\qb""#,
            #"1:8: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            #"echo "\u41""#,
            #"1:7: invalid unicode escape in double quotes: expected \u{XXXX} with 1 to 8 hex digits naming a Unicode scalar"#
        ),
        (
            #"echo "\u{110000}""#,
            #"1:7: invalid unicode escape in double quotes: expected \u{XXXX} with 1 to 8 hex digits naming a Unicode scalar"#
        ),
        (
            #"echo "\u{D800}""#,
            #"1:7: invalid unicode escape in double quotes: expected \u{XXXX} with 1 to 8 hex digits naming a Unicode scalar"#
        ),
        ("echo \"unterminated", "1:6: unterminated double quote"),
        ("echo 'x\ny", "1:6: unterminated single quote"),
        ("echo hi \\", "1:9: a backslash at the end of the input continues nothing"),
        ("echo hi \\\n", "1:9: a backslash at the end of the input continues nothing"),
        ("echo \"\"\" x\n  y\n  \"\"\"", #"1:10: nothing may follow an opening """ on its line"#),
        ("echo \"\"\"\n  a\n", #"1:6: unterminated """ block"#),
        ("echo \"\"\"", #"1:6: unterminated """ block"#),
        (
            "echo \"\"\"\n  a\n b\n  \"\"\"",
            #"3:2: insufficient indentation: each line of a """ block must start with the closing """'s indentation"#
        ),
        (
            "echo \"\"\"\n  a\n\tb\n  \"\"\"",
            #"3:1: insufficient indentation: each line of a """ block must start with the closing """'s indentation"#
        ),
        ("echo a\"\"\"\n  x\n  \"\"\"", #"1:7: a """ block must be a word of its own"#),
        (
            "echo \"\"\"\n  x\n  \"\"\"y",
            #"3:6: expected a blank or the end of the line after the closing """"#
        ),
        (
            "echo \"\"\"\n  x\"\"\"\n  \"\"\"",
            #"2:4: """ inside a block must be escaped as \"""; the closing """ starts its own line"#
        ),
        (
            "echo \"\"\"\n  \\q\n  \"\"\"",
            #"2:3: invalid escape '\q' in a """ block; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            "echo \"\"\"\n  x\\\n  \"\"\"",
            "2:4: a backslash at the end of a block's last line escapes nothing"
        ),
        ("echo ${}", "1:6: empty variable reference '${}'"),
        ("echo ${1a}", "1:8: expected a variable name after '${'"),
        ("echo ${a", "1:6: unterminated '${': expected '}'"),
        (#"echo "${a""#, "1:7: unterminated '${': expected '}'"),
        ("echo ${a.}", "1:10: expected a field name after '.'"),
        ("echo ${a[x]}", "1:10: expected an array index (digits) and ']' after '['"),
        ("echo ${a[99999999999999999999]}", "1:10: array index too large"),
        ("echo ${a b}", "1:9: unexpected ' ' in '${...}'; expected '.field', '[index]' or '}'"),
        // Lines and columns: the line of the error; columns count characters, a tab as one.
        (
            "echo ok\necho \"\\z\"",
            #"2:7: invalid escape '\z' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            "echo \"line1\nline2 \\x\"",
            #"2:7: invalid escape '\x' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            "\techo \"\\q\"",
            #"1:8: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            "echo \"日本\\q\"",
            #"1:9: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
        (
            "echo \"e\u{301}\\q\"",
            #"1:8: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
        ),
    ]

    @Test(arguments: errorCases)
    func errors(input: String, expected: String) {
        #expect(LanguageTesting.error(input) == expected)
    }

    @Test func byteOrderMarkAndCRLFAreAccepted() {
        let commands = LanguageTesting.parse("\u{FEFF}echo a\r\necho \"b\r\nc\"\r\n")
        #expect(commands.map(\.line) == [1, 2])
        #expect(commands.map(\.text) == ["echo a", "echo \"b\nc\""])
        guard commands.count == 2, case .success(let second) = commands[1].result else {
            Issue.record("expected two parsed commands")
            return
        }
        #expect(second.words.map(LanguageTesting.render) == [#""echo""#, #"quoted "b\nc""#])
    }

    @Test func sourceNormalisation() {
        let source = ShellSource(name: "x", text: "\u{FEFF}a\r\nb\r\n")
        #expect(source.text == "a\nb\n")
        #expect(source.lineCount == 2)
        #expect(source.lineText(2) == "b")
        #expect(source.line(containing: 2) == 2)
        // A BOM later in the text is kept.
        #expect(ShellSource(name: "x", text: "a\u{FEFF}").text == "a\u{FEFF}")
    }
}
