import Testing

@testable import SophonCore

/// Strict RFC 8259 parsing with `JSONValue(parsing:)` and error locations.
@Suite struct JSONParserStrictTests {
    @Test(arguments: [
        (#"{"a":[1,2.5e-3,true,false,null,"x\u00e9"]}"#, #"{"a":[1,2.5e-3,true,false,null,"xé"]}"#),
        ("  42  ", "42"),
        ("-0", "-0"),
        (#""\ud83d\ude00\t""#, #""😀\t""#),
        ("[ ]", "[]"),
        ("{ \"b\" : {\"c\" : [ ] } , \"a\" : 1E+2 }", #"{"b":{"c":[]},"a":1E+2}"#),
        ("\n[\r\n\t1\n]\n", "[1]"),
        (#""\"\\\/\b\f\n\r""#, #""\"\\/\b\f\n\r""#),
    ])
    func acceptsValidJSON(text: String, compact: String) throws {
        #expect(try JSONValue(parsing: text).compactText == compact)
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, 8, 1, 9, "unexpected '}' after ','", false),
        ("{\"a\": 1}\n[", 9, 2, 1, "unexpected '[' after the JSON value", false),
        ("{\n  \"a\": tru\n}", 9, 2, 8, "expected a JSON value but found 'tru'", false),
        ("[1, 2", 5, 1, 6, "unexpected end of input; expected the rest of the value", true),
        ("", 0, 1, 1, "unexpected end of input; expected a JSON value", true),
        (#"{"a": "x\qy"}"#, 8, 1, 9, "invalid escape: backslash followed by 'q'", false),
        ("[01]", 1, 1, 2, "a number cannot start with a leading zero", false),
        (#"{"a" 1}"#, 5, 1, 6, "expected ':' after the key but found '1'", false),
        ("[\"a\nb\"]", 3, 1, 4, "raw control character U+000A in a string must be escaped", false),
        ("// c\n{}", 0, 1, 1, "expected a JSON value but found '/'", false),
        ("{'a': 1}", 1, 1, 2, "expected a string key but found '''", false),
        ("[1.]", 3, 1, 4, "expected a digit in the number but found ']'", false),
        (#""\ud83d""#, 1, 1, 2, #"unpaired surrogate escape '\ud83d' in a string"#, false),
        ("[NaN]", 1, 1, 2, "expected a JSON value but found 'NaN'", false),
        ("{\"é\": x}", 7, 1, 7, "expected a JSON value but found 'x'", false),
        ("[1 2]", 3, 1, 4, "expected ',' or ']' but found '2'", false),
        (#"["abc"#, 1, 1, 2, "unterminated string (no closing quote before the end of input)", true),
    ])
    func rejectsInvalidJSONWithLocation(
        text: String, offset: Int, line: Int, column: Int, message: String, inputEnded: Bool
    ) {
        #expect(
            throws: JSONParseError(
                offset: offset, line: line, column: column, message: message, inputEnded: inputEnded)
        ) {
            try JSONValue(parsing: text)
        }
    }

    /// `inputEnded` says the text is the start of a JSON text that the end cut: set wherever the
    /// parser runs out of input (an open container, string, escape, number or literal), with the
    /// message and place the parser reports, and only there: a problem found before the end is
    /// not a cut, even when the end follows it at once (`false` below).
    @Test(arguments: [
        ("{", 1, "unexpected end of input; expected the rest of the value", true),
        (#"{"a""#, 4, "unexpected end of input; expected the rest of the value", true),
        (#"{"a":"#, 5, "unexpected end of input; expected the rest of the value", true),
        ("[1,", 3, "unexpected end of input; expected the rest of the value", true),
        ("   ", 3, "unexpected end of input; expected a JSON value", true),
        (#"{"a": "b"#, 6, "unterminated string (no closing quote before the end of input)", true),
        (#""a\"#, 2, "unexpected end of input in an escape sequence", true),
        (#""\u00"#, 1, "unexpected end of input in an escape sequence", true),
        (#""\ud83d"#, 1, #"unpaired surrogate escape '\ud83d' in a string"#, true),
        (#""\ud83d\u"#, 1, #"unpaired surrogate escape '\ud83d' in a string"#, true),
        ("1.", 2, "expected a digit in the number but found end of input", true),
        ("[1e+", 4, "expected a digit in the number but found end of input", true),
        ("-", 1, "expected a digit after '-' but found end of input", true),
        (#"{"a": tr"#, 6, "expected a JSON value but found 'tr'", true),
        ("[fals", 1, "expected a JSON value but found 'fals'", true),
        ("n", 0, "expected a JSON value but found 'n'", true),
        ("[1, 2]]", 6, "unexpected ']' after the JSON value", false),
        (#"{"a" 1"#, 5, "expected ':' after the key but found '1'", false),
        (#""\ud83d""#, 1, #"unpaired surrogate escape '\ud83d' in a string"#, false),
        (#""\ud83dx"#, 1, #"unpaired surrogate escape '\ud83d' in a string"#, false),
        (#""a\q"#, 2, "invalid escape: backslash followed by 'q'", false),
        ("[tx", 1, "expected a JSON value but found 'tx'", false),
        ("[truth", 1, "expected a JSON value but found 'truth'", false),
        ("[NaN", 1, "expected a JSON value but found 'NaN'", false),
        ("[01", 1, "a number cannot start with a leading zero", false),
        ("[1.x", 3, "expected a digit in the number but found 'x'", false),
    ])
    func inputEndedIsSetWhereTheInputRunsOutOnly(text: String, offset: Int, message: String, ended: Bool) {
        #expect(
            throws: JSONParseError(
                offset: offset, line: 1, column: offset + 1, message: message, inputEnded: ended)
        ) {
            try JSONValue(parsing: text)
        }
    }

    @Test func deepNestingIsRefused() {
        let text = String(repeating: "[", count: 100_000)
        #expect(
            throws: JSONParseError(
                offset: 512, line: 1, column: 513, message: "nesting deeper than 512 levels")
        ) { try JSONValue(parsing: text) }
    }

    @Test func errorDescriptionNamesLineAndColumn() {
        let error = JSONParseError(offset: 3, line: 2, column: 1, message: "boom")
        #expect(error.description == "line 2, column 1: boom")
    }

    @Test(arguments: [
        ("ab\ncd", 4, 2, 2), ("", 0, 1, 1), ("abc", 99, 1, 4), ("é\nx", 2, 1, 2), ("é\nx", 3, 2, 1),
    ])
    func textLocation(text: String, offset: Int, line: Int, column: Int) {
        #expect(TextLocation(utf8Offset: offset, in: text) == TextLocation(line: line, column: column))
    }

    @Test(arguments: [
        "{a: 1}", "[+1]", "[.5]", "{“a”: 1}", #"["a" "b"]"#, "[1 2]", "[1}", #"{"a": "x "y" z"}"#, "[...]",
        "# c\n[1]", #"{"a": True}"#, "[NaN]", #"{"a": x}"#, #"{\"a\": 1}"#, #"["it\'s"]"#, "{'a': 1}",
        #"{"a": 1]}"#, #"{"a": }"#,
    ])
    func lenientFormsAreRefused(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }
}
