import Testing

@testable import SophonCore

@Suite struct JSONValueTests {
    @Test func compactKeepsMemberOrder() {
        let value = JSONValue.object([
            JSONMember("b", .integer(1)), JSONMember("a", .array([.bool(true), .null])),
        ])
        #expect(value.compactText == #"{"b":1,"a":[true,null]}"#)
    }

    @Test func prettyIndentsByTwo() {
        let value = JSONValue.object([JSONMember("a", .array([.integer(1), .string("x\n")]))])
        #expect(value.prettyText == "{\n  \"a\": [\n    1,\n    \"x\\n\"\n  ]\n}")
    }

    @Test(arguments: [
        ("0", true), ("-1.5e+3", true), ("01", false), ("1.", false), (".5", false), ("1e", false),
        ("12345678901234567890", true), ("-", false), ("NaN", false),
    ])
    func numberSyntax(text: String, valid: Bool) {
        #expect(JSONNumber.isValidSyntax(text) == valid)
    }

    @Test func doubleToNumberText() {
        #expect(JSONNumber(3.0)?.text == "3")
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(1e300)?.text == "1e300")
        #expect(JSONNumber(.nan) == nil)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONValue.string("a\u{01}\"\\").compactText == #""a\u0001\"\\""#)
    }
}
