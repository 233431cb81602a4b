import Foundation
import Testing

@testable import SophonCore

private func num(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

@Suite struct LenientDecoderPathTests {
    @Test(
        arguments: [
            ([], "$"),
            ([.key("items"), .index(2), .key("n")], "$.items[2].n"),
            ([.key("unit price")], #"$["unit price"]"#),
            ([.key("a.b")], #"$["a.b"]"#),
            ([.key("1st")], #"$["1st"]"#),
            ([.key("")], #"$[""]"#),
            ([.key(#"say "hi""#)], #"$["say \"hi\""]"#),
            // `$` is not an identifier character (RFC 9535 shorthand): one spelling with schemas.
            ([.key("_a$1")], #"$["_a$1"]"#),
            ([.key("$id")], #"$["$id"]"#),
            ([.key("_a1")], "$._a1"),
            ([.index(0), .index(1)], "$[0][1]"),
            ([.key("café")], #"$["café"]"#),
        ] as [([JSONPath.Component], String)])
    func pathText(components: [JSONPath.Component], expected: String) {
        #expect(JSONPath(components).description == expected)
    }

    @Test func codingPathsMapIndexKeysToIndices() {
        let path = JSONPath(codingPath: [
            JSONPath.IndexKey(index: 4), JSONPath.IndexKey(stringValue: "Index 7")!, NameKey("Index x"),
        ])
        #expect(path.components == [.index(4), .index(7), .key("Index x")])
        #expect(JSONPath.IndexKey(stringValue: "7") == nil)
        #expect(JSONPath().appending(.key("a")).appending(.index(1)).description == "$.a[1]")
    }

    @Test func decimalsKeepTheirDigitsAndOverflowToNil() throws {
        struct Money: Decodable {
            let exact: Decimal
            let huge: Decimal?
        }
        let input = JSONValue.object([
            JSONMember("exact", num("12345678901234567890.25")), JSONMember("huge", num("1e400")),
        ])
        let result = try LenientJSONDecoder().decode(Money.self, from: input)
        #expect(result.value.exact == Decimal(string: "12345678901234567890.25"))
        #expect(result.value.huge == nil)
        #expect(result.coercions.map(\.description) == ["$.huge: 1e400 read as null"])
    }

    @Test func longStringsAreShortenedInMessages() {
        let long = String(repeating: "x", count: 100)
        do {
            _ = try LenientJSONDecoder().decode(Int.self, from: .string(long))
            Issue.record("expected an error")
        } catch let DecodingError.typeMismatch(_, context) {
            let shown = "\"" + String(repeating: "x", count: 59) + "…\""
            #expect(context.debugDescription == "Expected Int, found string \(shown).")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
