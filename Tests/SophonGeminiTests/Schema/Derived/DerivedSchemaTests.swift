import Foundation
import SophonCore
import SophonGemini
import Testing

/// The tour's book (examples/tour.sophon, step 1), as a Swift type.
struct TourBook: Decodable, Sendable, GeminiSchemaDescribing {
    enum Mood: String, Decodable, Sendable, CaseIterable { case light, thoughtful, dark }
    let title: String
    let author: String
    let year: Int
    let pages: Int?
    let genres: [String]
    let mood: Mood

    static let schemaFacets: [String: GeminiSchemaFacets] = ["pages": "approximate page count"]
}

@Suite struct DerivedSchemaTests {
    /// The schema line of examples/tour.sophon.
    static let tourSpec =
        #"{ title: string, author: string, year: integer, pages?: integer "approximate page count", genres: [string], mood: "light" | "thoughtful" | "dark" }"#

    @Test func theTourBookDerivesTheTourSchema() throws {
        let tour = try String(
            contentsOf: packageRoot().appendingPathComponent("examples/tour.sophon"), encoding: .utf8)
        #expect(tour.contains("schema " + Self.tourSpec))
        let handWritten = try GeminiSchema.parseSpec(Self.tourSpec)
        let derived = try GeminiSchema(for: TourBook.self)
        #expect(derived == handWritten)
        #expect(derived.jsonValue.compactText == handWritten.jsonValue.compactText)
    }

    struct Author: Decodable { let name: String; let born: Date? }
    struct Shelf: Decodable, GeminiSchemaDescribing {
        let label: String
        let books: [Book]
        let owner: Author
        let ratings: [Double?]
        let site: URL
        let count: UInt8
        struct Book: Decodable { let title: String; let tags: Set<String> }
        static let schemaDescription: String? = "A shelf"
        static let schemaFacets: [String: GeminiSchemaFacets] = [
            "count": GeminiSchemaFacets(minimum: 0, maximum: 255), "books": GeminiSchemaFacets(maxItems: 3),
        ]
    }

    @Test func nestedTypesArraysDatesOptionalsAndFacets() throws {
        let schema = try GeminiSchema(for: Shelf.self)
        #expect(
            schema.jsonValue.compactText
                == #"{"type":"OBJECT","description":"A shelf","properties":{"label":{"type":"STRING"},"#
                + #""books":{"type":"ARRAY","items":{"type":"OBJECT","properties":{"title":{"type":"STRING"},"#
                + #""tags":{"type":"ARRAY","items":{"type":"STRING"}}},"required":["title","tags"],"#
                + #""propertyOrdering":["title","tags"]},"maxItems":3},"owner":{"type":"OBJECT","properties":"#
                + #"{"name":{"type":"STRING"},"born":{"type":"STRING","format":"date-time"}},"required":["name"],"#
                + #""propertyOrdering":["name","born"]},"ratings":{"type":"ARRAY","items":{"type":"NUMBER","#
                + #""nullable":true}},"site":{"type":"STRING"},"count":{"type":"INTEGER","minimum":0,"maximum":255}},"#
                + #""required":["label","books","owner","ratings","site","count"],"#
                + #""propertyOrdering":["label","books","owner","ratings","site","count"]}"#)
    }

    struct Scores: Decodable { let name: String; let scores: [String: Int] }
    final class Node: Decodable { let value: Int; let children: [Node] }
    struct Ranked: Decodable { enum Rank: Int, Decodable, CaseIterable { case low, high }; let rank: Rank }
    struct Loose: Decodable { enum Kind: String, Decodable { case a, b }; let kind: Kind }
    struct Empty: Decodable {}
    struct WrongFacet: Decodable, GeminiSchemaDescribing {
        let title: String
        static let schemaFacets: [String: GeminiSchemaFacets] = ["titel": "typo"]
    }

    @Test func typesItCannotDescribeNameThePropertyPath() {
        func failure<T: Decodable>(_ type: T.Type) -> GeminiSchemaDerivationError? {
            do {
                _ = try GeminiSchema(for: type)
                return nil
            } catch { return error }
        }
        #expect(
            failure(Scores.self)
                == GeminiSchemaDerivationError(
                    path: "$.scores", typeName: "Dictionary<String, Int>", reason: .dictionary))
        #expect(
            failure(Scores.self)?.description
                == "cannot derive a schema at $.scores (Dictionary<String, Int>): a dictionary has no fixed properties; use a struct or adopt GeminiSchemaRepresentable"
        )
        #expect(
            failure(Node.self)
                == GeminiSchemaDerivationError(path: "$.children[0]", typeName: "Node", reason: .recursive))
        #expect(
            failure(Ranked.self)
                == GeminiSchemaDerivationError(path: "$.rank", typeName: "Rank", reason: .nonStringEnum))
        #expect(failure(Loose.self)?.path == "$.kind")
        #expect(failure(Loose.self)?.typeName == "Kind")
        #expect(failure(Empty.self)?.reason == .noProperties)
        #expect(failure(WrongFacet.self)?.reason == .unknownFacetProperty("titel"))
    }

    struct Money: Decodable, GeminiSchemaRepresentable {
        let cents: Int
        static let geminiSchema = GeminiSchema(
            type: .string, description: "an amount", example: .string("12.50"))
        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let value = Double(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not money"))
            }
            cents = Int(value * 100)
        }
    }
    struct Invoice: Decodable { let total: Money }

    @Test func aRepresentableTypeGivesItsOwnSchema() throws {
        // Money's init(from:) refuses the describing decoder's "" placeholder; its own schema is
        // taken, and its placeholder is the schema's example.
        #expect(
            try GeminiSchema(for: Invoice.self).jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"total":{"type":"STRING","description":"an amount","example":"12.50"}},"#
                + #""required":["total"],"propertyOrdering":["total"]}"#)
    }

    struct Verdict: Decodable { let label: String; let confidence: Confidence; let second: Confidence? }

    @Test func aConfidenceIsANumber() throws {
        #expect(
            try GeminiSchema(for: Verdict.self).jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"label":{"type":"STRING"},"confidence":{"type":"NUMBER"},"#
                + #""second":{"type":"NUMBER"}},"required":["label","confidence"],"#
                + #""propertyOrdering":["label","confidence","second"]}"#)
    }

    @Test func generateStructuredWithoutASchemaSendsTheDerivedOne() async throws {
        let reply =
            #"{"title": "Solaris", "author": "Stanisław Lem", "year": "1961", "genres": ["science fiction"], "mood": "thoughtful"}"#
        let (client, transport) = cannedClient([(status: 200, body: answer(reply))])
        let result = try await client.generateStructured(
            TourBook.self, label: "book", prompt: "One novel.", systemInstruction: "Be brief.")
        #expect(result.value.year == 1961)
        #expect(result.value.mood == .thoughtful)
        let body = try JSONValue(
            parsing: String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self))
        #expect(
            body["generationConfig"]?["responseSchema"]?.compactText
                == (try GeminiSchema.parseSpec(Self.tourSpec)).jsonValue.compactText)
        #expect(body["systemInstruction"]?.compactText == #"{"parts":[{"text":"Be brief."}]}"#)
    }

    private func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// ``GeminiSchema/swiftDeclaration(typeName:)``: the Swift source whose derived schema is the
/// schema shown.
@Suite struct SchemaSwiftSourceTests {
    @Test func theTourSchemaIsTheTourBook() throws {
        let schema = try GeminiSchema.parseSpec(DerivedSchemaTests.tourSpec)
        #expect(
            schema.swiftDeclaration(typeName: "Book") == """
                struct Book: Decodable, Sendable, GeminiSchemaDescribing {
                    enum Mood: String, Decodable, Sendable, CaseIterable {
                        case light
                        case thoughtful
                        case dark
                    }

                    let title: String
                    let author: String
                    let year: Int
                    /// approximate page count
                    let pages: Int?
                    let genres: [String]
                    let mood: Mood

                    static let schemaFacets: [String: GeminiSchemaFacets] = ["pages": "approximate page count"]
                }

                """)
    }

    @Test func keywordsEnumsDatesBoundsAndArrays() throws {
        let schema = GeminiSchema.object(
            properties: [
                "default": .string(enum: ["a b", "FINAL", "3d"]),
                "at": .string(format: "date-time"),
                "score": .number(minimum: 0, maximum: 1.5),
                "any": GeminiSchema(anyOf: [.string(), .integer()]),
            ], required: ["default", "at", "score"], description: "Top \"level\"")
        #expect(
            schema.swiftDeclaration() == """
                /// Top "level"
                struct Answer: Decodable, Sendable, GeminiSchemaDescribing {
                    enum Default: String, Decodable, Sendable, CaseIterable {
                        case aB = "a b"
                        case FINAL
                        case _3d = "3d"
                    }

                    let `default`: Default
                    let at: Date
                    let score: Double
                    let any: JSONValue?

                    static let schemaDescription: String? = "Top \\"level\\""

                    static let schemaFacets: [String: GeminiSchemaFacets] = ["score": GeminiSchemaFacets(minimum: 0, maximum: 1.5)]
                }

                """)
        #expect(
            GeminiSchema.array(items: .integer()).swiftDeclaration(typeName: "Scores")
                == "typealias Scores = [Int]\n")
    }
}
