import Foundation
import SophonCore
import SophonGemini
import Testing

/// `result.repairs` (what the extractor changed in the reply text) beside `result.coercions`
/// and its typed records `result.coercionDetails` (docs/library.md, "What a result lists").
@Suite struct ResultRepairsTests {
    struct Movie: Decodable, Sendable {
        let title: String
        let year: Int
        let tags: [String]
        let rating: Double?
    }

    static let reply = """
        Here is the film:
        ```json
        {"title": "Dune", "year": "2021", "tags": "sci-fi", "rating": "N/A",}
        ```
        """

    @Test func aStructuredResultListsRepairsAndTypedCoercions() async throws {
        let (client, _) = cannedClient([(status: 200, body: answer(Self.reply))])
        let result = try await client.generateStructured(Movie.self, label: "movie", prompt: "A film?")
        #expect(result.value.year == 2021)
        #expect(
            result.repairs.map(\.description) == [
                "took the value from the fenced block at offset 18",
                "removed the trailing comma at offset 93",
            ])
        #expect(result.repairs.map(\.kind) == [.strippedFence, .removedTrailingComma])
        #expect(
            result.coercions == [
                #"$.year: string "2021" read as number 2021"#, #"$.tags: string "sci-fi" wrapped as array"#,
                #"$.rating: string "N/A" removed (read as absent)"#,
            ])
        #expect(result.coercionDetails.map(\.description) == result.coercions)
        #expect(result.coercionDetails.map(\.path) == ["$.year", "$.tags", "$.rating"])
        #expect(result.coercionDetails.map(\.from) == [.string("2021"), .string("sci-fi"), .string("N/A")])
        #expect(result.coercionDetails.map { $0.to?.compactText } == ["2021", #"["sci-fi"]"#, nil])
    }

    @Test func aCleanReplyHasNoRepairsAndATextAnswerNone() async throws {
        let (client, _) = cannedClient([
            (status: 200, body: answer(#"{"title": "Arrival", "year": 2016, "tags": []}"#)),
            (status: 200, body: answer("Hi!")),
        ])
        let movie = try await client.generateStructured(Movie.self, label: "movie", prompt: "A film?")
        #expect(movie.repairs.isEmpty)
        #expect(movie.coercionDetails.isEmpty)
        let text = try await client.generateText(label: "hi", prompt: "Hi")
        #expect(text.repairs.isEmpty && text.coercions.isEmpty)
    }

    @Test func decoderCoercionsBecomeRecordsToo() {
        let coercion = GeminiCoercion(
            JSONCoercion(
                jsonPath: JSONPath([.key("year")]), kind: .stringToNumber, from: .string("7"), to: .integer(7)
            ))
        #expect(coercion.path == "$.year")
        #expect(coercion.description == #"$.year: "7" read as 7"#)
    }
}
