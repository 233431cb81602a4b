import Foundation
import Testing

@testable import SophonCore

private func num(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

private func obj(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONMember($0.0, $0.1) })
}

/// `(path, kind)` pairs of a result, for compact expectations.
private func trail<T>(_ result: LenientDecodingResult<T>) -> [String] {
    result.coercions.map { "\($0.path) \($0.kind.rawValue)" }
}

private struct Basic: Decodable, Equatable {
    let n: Int
    let score: Double?
    let ok: Bool
    let tags: [String]
}

private struct Order: Decodable, Equatable {
    struct Item: Decodable, Equatable {
        let name: String
        let year: Int
        let price: Decimal?
        let tags: [String]?
    }
    let id: String
    let items: [Item]
    let notes: [String: Int]
}

private enum Status: String, Decodable, CaseIterable {
    case done, open
    case unknown = "n/a"
}

private struct Ticket: Decodable, Equatable {
    let status: Status
    let previous: Status?
    let fallback: Status?
}

@Suite struct LenientDecoderTests {
    let decoder = LenientJSONDecoder()

    @Test func readsTheUsualLLMShapesAndReportsFourCoercions() throws {
        let input = obj(
            ("n", .string("7")), ("score", .string("N/A")), ("ok", .string("yes")),
            ("tags", .string("a, b")))
        let result = try decoder.decode(Basic.self, from: input)
        #expect(result.value == Basic(n: 7, score: nil, ok: true, tags: ["a", "b"]))
        #expect(result.coercions.count == 4)
        #expect(
            result.coercions == [
                JSONCoercion(
                    jsonPath: JSONPath([.key("n")]), kind: .stringToNumber, from: .string("7"),
                    to: num("7")),
                JSONCoercion(
                    jsonPath: JSONPath([.key("score")]), kind: .nullWordToNil,
                    from: .string("N/A"), to: .null),
                JSONCoercion(
                    jsonPath: JSONPath([.key("ok")]), kind: .stringToBool, from: .string("yes"),
                    to: .bool(true)),
                JSONCoercion(
                    jsonPath: JSONPath([.key("tags")]), kind: .commaSeparatedToArray,
                    from: .string("a, b"), to: .array([.string("a"), .string("b")])),
            ])
        #expect(result.coercions.map(\.path) == ["$.n", "$.score", "$.ok", "$.tags"])
        #expect(
            result.coercions.map(\.description) == [
                #"$.n: "7" read as 7"#, #"$.score: "N/A" read as null"#,
                #"$.ok: "yes" read as true"#, #"$.tags: "a, b" read as ["a","b"]"#,
            ])
    }

    @Test func cleanInputHasNoCoercions() throws {
        let input = obj(
            ("n", num("7")), ("score", num("0.5")), ("ok", .bool(false)),
            ("tags", .array([.string("x")])))
        let result = try decoder.decode(Basic.self, from: input)
        #expect(result.value == Basic(n: 7, score: 0.5, ok: false, tags: ["x"]))
        #expect(result.coercions.isEmpty)
    }

    @Test func reportsCoercionsAtDeepPaths() throws {
        let item0 = obj(("name", num("42")), ("year", num("2001")), ("price", .string("$1,299.99")))
        let item1 = obj(("name", .string("b")), ("year", num("1999.9")), ("tags", .string("x")))
        let item2 = obj(
            ("name", .string("c")), ("year", .string("2020")), ("price", .string("none")),
            ("tags", .array([.string("p"), num("3")])))
        let input = obj(
            ("id", num("17")), ("items", .array([item0, item1, item2])),
            ("notes", obj(("unit price", .string("12")), ("a", num("2")))))
        let result = try decoder.decode(Order.self, from: input)
        #expect(
            result.value
                == Order(
                    id: "17",
                    items: [
                        .init(name: "42", year: 2001, price: Decimal(string: "1299.99"), tags: nil),
                        .init(name: "b", year: 1999, price: nil, tags: ["x"]),
                        .init(name: "c", year: 2020, price: nil, tags: ["p", "3"]),
                    ],
                    notes: ["unit price": 12, "a": 2]))
        #expect(
            trail(result) == [
                "$.id numberToString",
                "$.items[0].name numberToString",
                "$.items[0].price stringToNumber",
                "$.items[1].year floatTruncatedToInt",
                "$.items[1].tags singleValueToArray",
                "$.items[2].year stringToNumber",
                "$.items[2].price nullWordToNil",
                "$.items[2].tags[1] numberToString",
                #"$.notes["unit price"] stringToNumber"#,
            ])
        #expect(result.coercions[3].description == "$.items[1].year: 1999.9 read as 1999")
    }

    @Test func missingOptionalKeyIsNilWithoutCoercion() throws {
        let result = try decoder.decode(
            Basic.self, from: obj(("n", num("1")), ("ok", .bool(true)), ("tags", .array([]))))
        #expect(result.value == Basic(n: 1, score: nil, ok: true, tags: []))
        #expect(result.coercions.isEmpty)
    }

    @Test func nullForOptionalIsNilWithoutCoercion() throws {
        let input = obj(("n", num("1")), ("score", .null), ("ok", .bool(true)), ("tags", .array([])))
        let result = try decoder.decode(Basic.self, from: input)
        #expect(result.value.score == nil)
        #expect(result.coercions.isEmpty)
    }

    @Test(arguments: ["N/A", "none", "None", "null", "NULL", "", "-", "undefined"])
    func nullWordsForOptionalsAreNil(word: String) throws {
        let input = obj(("n", num("1")), ("score", .string(word)), ("ok", .bool(true)), ("tags", .array([])))
        let result = try decoder.decode(Basic.self, from: input)
        #expect(result.value.score == nil)
        #expect(trail(result) == ["$.score nullWordToNil"])
    }

    @Test func outOfRangeNumbersForOptionalsAreNil() throws {
        struct Small: Decodable {
            let a: Int8?
            let b: UInt?
            let c: Double?
            let d: Float?
            let e: Int?
        }
        let input = obj(
            ("a", num("300")), ("b", num("-1")), ("c", num("1e400")), ("d", .string("1e39")),
            ("e", .string("1e400")))
        let result = try decoder.decode(Small.self, from: input)
        #expect(result.value.a == nil && result.value.b == nil && result.value.c == nil)
        #expect(result.value.d == nil && result.value.e == nil)
        #expect(
            trail(result) == [
                "$.a outOfRangeToNil", "$.b outOfRangeToNil", "$.c outOfRangeToNil",
                "$.d outOfRangeToNil", "$.e outOfRangeToNil",
            ])
    }

    @Test func everyIntegerTypeReadsNumericStrings() throws {
        struct Integers: Decodable, Equatable {
            let i: Int, i8: Int8, i16: Int16, i32: Int32, i64: Int64
            let u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
        }
        let names = ["i", "i8", "i16", "i32", "i64", "u", "u8", "u16", "u32", "u64"]
        let input = JSONValue.object(names.map { JSONMember($0, .string("12")) })
        let result = try decoder.decode(Integers.self, from: input)
        #expect(
            result.value
                == Integers(
                    i: 12, i8: 12, i16: 12, i32: 12, i64: 12, u: 12, u8: 12, u16: 12, u32: 12, u64: 12))
        #expect(trail(result) == names.map { "$.\($0) stringToNumber" })
    }

    @Test func largeUnsignedLiteralKeepsEveryDigit() throws {
        let result = try decoder.decode(UInt64.self, from: num("18446744073709551615"))
        #expect(result.value == UInt64.max)
        #expect(result.coercions.isEmpty)
    }

    @Test func floatsAndBooleansAndStrings() throws {
        struct Mixed: Decodable, Equatable {
            let f: Float, d: Double, b1: Bool, b2: Bool, s1: String, s2: String
        }
        let input = obj(
            ("f", .string("0.1")), ("d", .string("85%")), ("b1", num("1")), ("b2", .string("No")),
            ("s1", .bool(true)), ("s2", num("7.50")))
        let result = try decoder.decode(Mixed.self, from: input)
        #expect(result.value == Mixed(f: 0.1, d: 85, b1: true, b2: false, s1: "true", s2: "7.50"))
        #expect(
            result.coercions.map(\.description) == [
                #"$.f: "0.1" read as 0.1"#, #"$.d: "85%" read as 85"#, "$.b1: 1 read as true",
                #"$.b2: "No" read as false"#, #"$.s1: true read as "true""#,
                #"$.s2: 7.50 read as "7.50""#,
            ])
    }

    @Test func singleValuesWhereArraysAreExpected() throws {
        struct Lists: Decodable, Equatable {
            let ints: [Int]
            let items: [[String: Int]]
            let words: [String]
            let set: Set<Int>
        }
        let input = obj(
            ("ints", num("5")), ("items", obj(("a", num("1")))), ("words", .string("one")),
            ("set", .string("3")))
        let result = try decoder.decode(Lists.self, from: input)
        #expect(result.value == Lists(ints: [5], items: [["a": 1]], words: ["one"], set: [3]))
        #expect(
            trail(result) == [
                "$.ints singleValueToArray", "$.items singleValueToArray", "$.words singleValueToArray",
                "$.set singleValueToArray", "$.set[0] stringToNumber",
            ])
    }

    @Test func optionalElementsInArrays() throws {
        let input = JSONValue.array([num("1"), .null, .string("N/A"), .string("300"), .string("-2")])
        let result = try decoder.decode([Int8?].self, from: input)
        #expect(result.value == [1, nil, nil, nil, -2])
        #expect(
            trail(result) == [
                "$[2] nullWordToNil", "$[3] outOfRangeToNil", "$[4] stringToNumber",
            ])
    }

    @Test func topLevelOptionalAndScalars() throws {
        #expect(try decoder.decode(Int?.self, from: .string("none")).value == nil)
        #expect(try decoder.decode(Int?.self, from: .string("4")).value == 4)
        #expect(try decoder.decode(String.self, from: .string("N/A")).value == "N/A")
        #expect(try decoder.decode([String]?.self, from: .string("n/a")).value == nil)
        #expect(try decoder.decode([String].self, from: .string("a,b")).value == ["a", "b"])
    }

    @Test func enumsMatchIgnoringCase() throws {
        let input = obj(
            ("status", .string(" DONE ")), ("previous", .string("N/A")), ("fallback", .string("none")))
        let result = try decoder.decode(Ticket.self, from: input)
        #expect(result.value == Ticket(status: .done, previous: .unknown, fallback: nil))
        #expect(
            result.coercions.map(\.description) == [
                #"$.status: " DONE " read as "done""#, #"$.previous: "N/A" read as "n/a""#,
                #"$.fallback: "none" read as null"#,
            ])
        #expect(try decoder.decode(Status.self, from: .string("open")).coercions.isEmpty)
    }

    @Test func foundationTypes() throws {
        struct Links: Decodable, Equatable {
            let url: URL
            let when: Date
            let amount: Decimal
        }
        let input = obj(
            ("url", .string(" https://example.com/a ")), ("when", num("0")), ("amount", .string("€1,000.5")))
        let result = try decoder.decode(Links.self, from: input)
        #expect(result.value.url.absoluteString == "https://example.com/a")
        #expect(result.value.when == Date(timeIntervalSinceReferenceDate: 0))
        #expect(result.value.amount == Decimal(string: "1000.5"))
        #expect(trail(result) == ["$.amount stringToNumber"])
    }

    @Test func failedAttemptsLeaveNoCoercions() throws {
        struct Pair: Decodable {
            let a: Int
            let b: Int
        }
        struct Either: Decodable {
            let pair: Pair?
            let raw: [String: String]
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                pair = try? container.decode(Pair.self)
                raw = try container.decode([String: String].self)
            }
        }
        let result = try decoder.decode(Either.self, from: obj(("a", .string("1")), ("b", .string("x"))))
        #expect(result.value.pair == nil)
        #expect(result.value.raw == ["a": "1", "b": "x"])
        #expect(result.coercions.isEmpty)
    }

    @Test func userInfoReachesTheDecodedType() throws {
        struct Probe: Decodable {
            let seen: String?
            init(from decoder: any Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "probe")!] as? String
            }
        }
        let custom = LenientJSONDecoder(userInfo: [CodingUserInfoKey(rawValue: "probe")!: "here"])
        #expect(try custom.decode(Probe.self, from: .object([])).value.seen == "here")
    }
}
