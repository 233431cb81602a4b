import Foundation
import Testing

@testable import SophonCore

private func num(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

private func obj(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONMember($0.0, $0.1) })
}

private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private func context(_ path: [any CodingKey], _ text: String) -> DecodingError.Context {
    DecodingError.Context(codingPath: path, debugDescription: text)
}

private struct Catalog: Decodable {
    struct Item: Decodable { let year: Int }
    let title: String
    let items: [Item]
}

@Suite struct LLMDecodingSummaryTests {
    /// The summary of the error thrown when decoding `value` as `Catalog`.
    private func summary(decoding value: JSONValue) -> String? {
        do {
            _ = try LenientJSONDecoder().decode(Catalog.self, from: value)
            return nil
        } catch let error as DecodingError {
            return LLMDecoding.summary(of: error)
        } catch {
            return nil
        }
    }

    @Test func typeMismatchFromTheDecoder() {
        let items = JSONValue.array([
            obj(("year", num("1"))), obj(("year", num("2"))), obj(("year", .string("abc"))),
        ])
        #expect(
            summary(decoding: obj(("title", .string("t")), ("items", items)))
                == #"$.items[2].year: expected Int, found string "abc""#)
    }

    @Test func missingKeyFromTheDecoder() {
        #expect(summary(decoding: obj(("items", .array([])))) == "$.title: missing key")
    }

    @Test func valueNotFoundFromTheDecoder() {
        #expect(
            summary(decoding: obj(("title", .null), ("items", .array([]))))
                == "$.title: expected String, found null")
    }

    @Test func outOfRangeFromTheDecoder() {
        let items = JSONValue.array([obj(("year", num("1e30")))])
        #expect(
            summary(decoding: obj(("title", .string("t")), ("items", items)))
                == "$.items[0].year: expected Int, found number 1e30 (out of range)")
    }

    @Test(
        arguments: [
            (
                DecodingError.typeMismatch(
                    Int.self, context([], "Expected to decode Int but found a string instead.")),
                "$: expected to decode Int but found a string instead"
            ),
            (.typeMismatch(Int.self, context([Key("a")], "")), "$.a: expected Int"),
            (
                .typeMismatch(Double.self, context([Key("x")], "Not a number.")),
                "$.x: expected Double: not a number"
            ),
            (.valueNotFound(String.self, context([], "")), "$: expected String, found null"),
            (
                .valueNotFound(
                    Int.self, context([Key("a"), JSONPath.IndexKey(index: 0)], "Expected Int, found null.")),
                "$.a[0]: expected Int, found null"
            ),
            (
                .keyNotFound(Key("first name"), context([Key("user")], "No value.")),
                #"$.user["first name"]: missing key"#
            ),
            (.keyNotFound(JSONPath.IndexKey(index: 3), context([Key("rows")], "")), "$.rows[3]: missing key"),
            (.dataCorrupted(context([], "")), "$: data corrupted"),
            (
                .dataCorrupted(context([], "The given data was not valid JSON.")),
                "$: the given data was not valid JSON"
            ),
            (
                .dataCorrupted(context([Key("u")], "URL is invalid.\nSecond line.")),
                "$.u: URL is invalid. Second line"
            ),
        ] as [(DecodingError, String)])
    func summariesOfHandMadeErrors(error: DecodingError, expected: String) {
        #expect(LLMDecoding.summary(of: error) == expected)
    }

    @Test func foundationIndexKeysReadAsIndices() {
        let data = Data(#"{"title":"t","items":[{"year":1},{"year":2},{"year":"abc"}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Catalog.self, from: data)
            Issue.record("expected an error")
        } catch let error as DecodingError {
            #expect(LLMDecoding.summary(of: error).hasPrefix("$.items[2].year: expected"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
