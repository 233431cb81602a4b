import Foundation
import Testing

@testable import SophonCore

private func num(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

private func obj(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONMember($0.0, $0.1) })
}

/// The error thrown by `body`, which must be a `DecodingError`.
private func decodingError(_ body: () throws -> Void) -> DecodingError? {
    do {
        try body()
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        return nil
    }
}

/// The error's case name, path (as JSON path text) and debug description.
private func parts(_ error: DecodingError?) -> (String, String, String)? {
    switch error {
    case .typeMismatch(_, let context):
        ("typeMismatch", JSONPath(codingPath: context.codingPath).description, context.debugDescription)
    case .valueNotFound(_, let context):
        ("valueNotFound", JSONPath(codingPath: context.codingPath).description, context.debugDescription)
    case .keyNotFound(let key, let context):
        (
            "keyNotFound:\(key.stringValue)", JSONPath(codingPath: context.codingPath).description,
            context.debugDescription
        )
    case .dataCorrupted(let context):
        ("dataCorrupted", JSONPath(codingPath: context.codingPath).description, context.debugDescription)
    case nil:
        nil
    @unknown default:
        nil
    }
}

private struct Tiny: Decodable {
    let n: Int8
}

private struct Catalog: Decodable {
    struct Item: Decodable {
        let year: Int
    }
    let title: String
    let items: [Item]
}

@Suite struct LenientDecoderErrorTests {
    let decoder = LenientJSONDecoder()

    @Test(
        arguments: [
            (num("300"), "dataCorrupted", "Expected Int8, found number 300 (out of range)."),
            (num("-129"), "dataCorrupted", "Expected Int8, found number -129 (out of range)."),
            (num("1e400"), "dataCorrupted", "Expected Int8, found number 1e400 (out of range)."),
            (.string("1e400"), "dataCorrupted", #"Expected Int8, found string "1e400" (out of range)."#),
            (.string("abc"), "typeMismatch", #"Expected Int8, found string "abc"."#),
            (.string("N/A"), "valueNotFound", #"Expected Int8, found null word "N/A"."#),
            (.null, "valueNotFound", "Expected Int8, found null."),
            (.bool(true), "typeMismatch", "Expected Int8, found boolean true."),
            (.array([num("1"), num("2")]), "typeMismatch", "Expected Int8, found array of 2 elements."),
            (obj(("a", num("1"))), "typeMismatch", "Expected Int8, found object with 1 member."),
        ] as [(JSONValue, String, String)])
    func int8ProblemsAreTypedErrorsNotTraps(value: JSONValue, kind: String, message: String) {
        let error = decodingError { _ = try decoder.decode(Tiny.self, from: obj(("n", value))) }
        #expect(parts(error)! == (kind, "$.n", message))
    }

    @Test func int8OverflowIsDataCorruptedWithTheKeyInThePath() {
        let error = decodingError { _ = try decoder.decode(Tiny.self, from: obj(("n", num("128")))) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["n"])
    }

    @Test func typeMismatchDeepInsideArrays() {
        let input = obj(
            ("title", .string("t")),
            (
                "items",
                .array([obj(("year", num("1"))), obj(("year", num("2"))), obj(("year", .string("abc")))])
            ))
        let error = decodingError { _ = try decoder.decode(Catalog.self, from: input) }
        guard case .typeMismatch(let type, let context) = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(context.codingPath.map(\.stringValue) == ["items", "Index 2", "year"])
        #expect(context.codingPath.map(\.intValue) == [nil, 2, nil])
        #expect(context.debugDescription == #"Expected Int, found string "abc"."#)
    }

    @Test func missingKeyIsKeyNotFound() {
        let error = decodingError { _ = try decoder.decode(Catalog.self, from: obj(("items", .array([])))) }
        #expect(parts(error)! == ("keyNotFound:title", "$", #"No value for key "title"."#))
    }

    @Test func nullWordForNonOptionalArrayIsValueNotFound() {
        struct Tags: Decodable { let tags: [String] }
        let error = decodingError { _ = try decoder.decode(Tags.self, from: obj(("tags", .string("none")))) }
        #expect(
            parts(error)! == ("valueNotFound", "$.tags", #"Expected Array<String>, found null word "none"."#))
    }

    @Test func containersOfTheWrongKind() {
        let notObject = decodingError { _ = try decoder.decode(Tiny.self, from: .string("x")) }
        #expect(parts(notObject)! == ("typeMismatch", "$", #"Expected object, found string "x"."#))
        let nullArray = decodingError { _ = try decoder.decode([Int].self, from: .null) }
        #expect(parts(nullArray)! == ("valueNotFound", "$", "Expected Array<Int>, found null."))
        let wordArray = decodingError { _ = try decoder.decode([Int].self, from: .string("N/A")) }
        #expect(parts(wordArray)! == ("valueNotFound", "$", #"Expected array, found null word "N/A"."#))
    }

    @Test func readingPastTheEndOfAnArray() {
        struct Triple: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                for _ in 0..<3 { _ = try container.decode(Int.self) }
            }
        }
        let error = decodingError { _ = try decoder.decode(Triple.self, from: .array([num("1"), num("2")])) }
        #expect(parts(error)! == ("valueNotFound", "$[2]", "Expected Int, found end of array (2 elements)."))
    }

    @Test func enumWithoutMatchingCase() {
        enum Color: String, Decodable, CaseIterable { case red, green }
        let error = decodingError {
            _ = try decoder.decode([Color].self, from: .array([.string("RED"), .string("blue")]))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(JSONPath(codingPath: context.codingPath).description == "$[1]")
    }

    @Test func invalidURLIsDataCorrupted() {
        let error = decodingError { _ = try decoder.decode(URL.self, from: .string("http://[::1")) }
        #expect(
            parts(error)! == (
                "dataCorrupted", "$", #"Expected URL, found string "http://[::1" (not a valid URL)."#
            ))
    }

    @Test func nestedContainersAndSuperDecodersKeepPaths() throws {
        struct Custom: Decodable {
            enum Keys: String, CodingKey { case outer, list, base, `super` }
            enum Inner: String, CodingKey { case x }
            let x: Int
            let second: Int
            let base: Bool
            let parent: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                x = try container.nestedContainer(keyedBy: Inner.self, forKey: .outer).decode(
                    Int.self, forKey: .x)
                var list = try container.nestedUnkeyedContainer(forKey: .list)
                _ = try list.decodeNil()
                var row = try list.nestedUnkeyedContainer()
                _ = try row.decode(Int.self)
                second = try row.decode(Int.self)
                base = try container.superDecoder(forKey: .base).singleValueContainer().decode(Bool.self)
                parent = try container.superDecoder().singleValueContainer().decode(String.self)
            }
        }
        let input = obj(
            ("outer", obj(("x", .string("1")))),
            ("list", .array([.string("none"), .array([num("0"), num("2.5")])])),
            ("base", .string("y")), ("super", num("9")))
        let result = try decoder.decode(Custom.self, from: input)
        #expect(
            result.value.x == 1 && result.value.second == 2 && result.value.base && result.value.parent == "9"
        )
        #expect(
            result.coercions.map(\.description) == [
                #"$.outer.x: "1" read as 1"#, #"$.list[0]: "none" read as null"#,
                "$.list[1][1]: 2.5 read as 2", #"$.base: "y" read as true"#, #"$.super: 9 read as "9""#,
            ])
    }
}
