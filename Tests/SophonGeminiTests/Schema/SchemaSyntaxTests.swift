import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaSyntaxTests {
    static let typeSyntaxCases: [(String, String)] = [
        (
            #"{ title: string, year: integer, rating?: number "0-10", tags: [string], status: "draft" | "final", author: { name: string } }"#,
            #"{"type":"OBJECT","properties":{"title":{"type":"STRING"},"year":{"type":"INTEGER"},"#
                + #""rating":{"type":"NUMBER","description":"0-10"},"tags":{"type":"ARRAY","items":{"type":"STRING"}},"#
                + #""status":{"type":"STRING","enum":["draft","final"]},"author":{"type":"OBJECT","properties":"#
                + #"{"name":{"type":"STRING"}},"required":["name"],"propertyOrdering":["name"]}},"#
                + #""required":["title","year","tags","status","author"],"#
                + #""propertyOrdering":["title","year","rating","tags","status","author"]}"#
        ),
        ("[string]", #"{"type":"ARRAY","items":{"type":"STRING"}}"#),
        (
            "[ { name: str, age: int } ]",
            #"{"type":"ARRAY","items":{"type":"OBJECT","properties":{"name":{"type":"STRING"},"#
                + #""age":{"type":"INTEGER"}},"required":["name","age"],"propertyOrdering":["name","age"]}}"#
        ),
        (
            "{ ok: bool, score: float | null, \"odd key\"?: double }",
            #"{"type":"OBJECT","properties":{"ok":{"type":"BOOLEAN"},"score":{"type":"NUMBER","nullable":true},"#
                + #""odd key":{"type":"NUMBER"}},"required":["ok","score"],"propertyOrdering":["ok","score","odd key"]}"#
        ),
        (
            "{\n  a: string \"first\"\n  b: [integer \"each\"] \"all\",\n}",
            #"{"type":"OBJECT","properties":{"a":{"type":"STRING","description":"first"},"#
                + #""b":{"type":"ARRAY","description":"all","items":{"type":"INTEGER","description":"each"}}},"#
                + #""required":["a","b"],"propertyOrdering":["a","b"]}"#
        ),
        (#""a" | 'b' | null"#, #"{"type":"STRING","nullable":true,"enum":["a","b"]}"#),
        (
            #"{ s: "x\"y\u00e9" }"#,
            #"{"type":"OBJECT","properties":{"s":{"type":"STRING","enum":["x\"yé"]}},"required":["s"],"propertyOrdering":["s"]}"#
        ),
        (
            #"[[number]] "matrix""#,
            #"{"type":"ARRAY","description":"matrix","items":{"type":"ARRAY","items":{"type":"NUMBER"}}}"#
        ),
        (
            #"{ status: "draft" | "final" "the state", n: int, }"#,
            #"{"type":"OBJECT","properties":{"status":{"type":"STRING","description":"the state","enum":["draft","final"]},"#
                + #""n":{"type":"INTEGER"}},"required":["status","n"],"propertyOrdering":["status","n"]}"#
        ),
        (
            #"{ a: integer "", b: [string ' '] "\t", c: string " x " }"#,
            #"{"type":"OBJECT","properties":{"a":{"type":"INTEGER"},"b":{"type":"ARRAY","items":{"type":"STRING"}},"#
                + #""c":{"type":"STRING","description":" x "}},"required":["a","b","c"],"propertyOrdering":["a","b","c"]}"#
        ),
    ]

    @Test(arguments: typeSyntaxCases)
    func typeSyntax(input: String, expected: String) throws {
        let schema = try GeminiSchema.parseTypeSyntax(input)
        #expect(schema.jsonValue.compactText == expected)
    }

    static let typeSyntaxErrors: [(String, String)] = [
        ("{ title string }", "expected ':' after property name at column 9"),
        (
            "{ title: strin }",
            #"unknown type "strin" (did you mean 'string'?) at column 10"#
        ),
        ("{ a: string b: int }", #"expected ',' or '}' after property "a" at column 13"#),
        ("{ a: string", "unclosed '{' at column 1"),
        (
            "{ a: date }",
            #"unknown type "date" (expected string, integer, number, boolean, an object, an array or quoted values) at column 6"#
        ),
        ("{}", "an object needs at least one property at column 2"),
        ("[]", "expected the element type inside '[]' at column 2"),
        ("[string", "unclosed '[' at column 1"),
        ("{ a: string, a: int }", #"duplicate property "a" at column 14"#),
        (
            #"{ a: "x" | int }"#,
            "a union combines quoted strings (an enum), or one type with null at column 12"
        ),
        (#"{ a: "open }"#, "unterminated string at column 6"),
        (#"{ a: "\q" }"#, #"invalid escape '\q' at column 7"#),
        ("string extra", "unexpected 'e' after the schema at column 8"),
        ("{ a: string,\n  b int }", "expected ':' after property name at line 2, column 5"),
        ("", "expected a schema at column 1"),
        ("{ ,a: int }", "expected a property name, got ',' at column 3"),
    ]

    @Test(arguments: typeSyntaxErrors)
    func typeSyntaxError(input: String, expected: String) {
        #expect(throws: GeminiSchemaSyntaxError.self) { try GeminiSchema.parseTypeSyntax(input) }
        do {
            _ = try GeminiSchema.parseTypeSyntax(input)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func typeSyntaxErrorCarriesLineAndColumn() {
        do {
            _ = try GeminiSchema.parseTypeSyntax("{ a: string,\n  b int }")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 5)
            #expect(error.message == "expected ':' after property name")
        }
    }

    static let conciseCases: [(String, String)] = [
        (
            "name, age int, bio: a short bio",
            #"{"type":"OBJECT","properties":{"name":{"type":"STRING"},"age":{"type":"INTEGER"},"#
                + #""bio":{"type":"STRING","description":"a short bio"}},"required":["name","age","bio"],"#
                + #""propertyOrdering":["name","age","bio"]}"#
        ),
        (
            "score float: from 0, to 1\nok bool\n\nlabel str",
            #"{"type":"OBJECT","properties":{"score":{"type":"NUMBER","description":"from 0, to 1"},"#
                + #""ok":{"type":"BOOLEAN"},"label":{"type":"STRING"}},"required":["score","ok","label"],"#
                + #""propertyOrdering":["score","ok","label"]}"#
        ),
        (
            "  x ,",
            #"{"type":"OBJECT","properties":{"x":{"type":"STRING"}},"required":["x"],"propertyOrdering":["x"]}"#
        ),
    ]

    @Test(arguments: conciseCases)
    func conciseSyntax(input: String, expected: String) throws {
        #expect(try GeminiSchema.parseConciseSyntax(input).jsonValue.compactText == expected)
    }

    static let conciseErrors: [(String, String)] = [
        ("name, age integr", #"unknown type "integr" (did you mean 'integer'?) at column 11"#),
        ("name str extra", #"unexpected "extra" after the type (a description follows ':') at column 10"#),
        ("a date", #"unknown type "date" (expected str, int, float or bool) at column 3"#),
        ("a, b, a int", #"duplicate field "a" at column 7"#),
        (" , ", "expected at least one field at column 1"),
        ("a, : text", "expected a field name before ':' at column 4"),
    ]

    @Test(arguments: conciseErrors)
    func conciseSyntaxError(input: String, expected: String) {
        do {
            _ = try GeminiSchema.parseConciseSyntax(input)
            Issue.record("expected an error for \(input)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func specPicksTheSyntax() throws {
        #expect(
            try GeminiSchema.parseSpec("  [int]").jsonValue.compactText
                == #"{"type":"ARRAY","items":{"type":"INTEGER"}}"#)
        #expect(try GeminiSchema.parseSpec("n int").properties?.names == ["n"])
    }
}
