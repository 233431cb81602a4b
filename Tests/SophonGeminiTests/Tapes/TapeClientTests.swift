import Foundation
import SophonCore
import Synchronization
import Testing

@testable import SophonGemini

/// The real client over a recorder, then over a replayer of the same tape: the same results,
/// no key, no waits.
@Suite struct TapeClientTests {
    typealias Support = TapeTestSupport

    struct Book: Decodable, Sendable, Equatable {
        let title: String
        let year: Int
    }

    static let baseURL = URL(string: "http://127.0.0.1:9/proxy")!

    static func configuration(sleeps: TapeLog<Duration>) -> GeminiClientConfiguration {
        GeminiClientConfiguration(
            defaultModel: .gemini25Flash, fallbackModel: .gemini35FlashLite, baseURL: baseURL,
            // Limits none reaches, even when a loaded machine starves the test pool for minutes.
            requestTimeout: .seconds(3_600), callTimeout: .seconds(3_600),
            apiKeyProvider: { Support.key },
            sleep: { wait in sleeps.append(wait) }, random: { 0.5 })
    }

    static let book = """
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "{\\"title\\": \\"Dune\\", \\"year\\": 1965}"}]},
          "finishReason": "STOP"}],
         "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 7, "totalTokenCount": 16}}
        """
    static let unavailable = """
        {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
        """
    static let events = [
        #"data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}]}"# + "\r\n\r\n",
        #"data: {"candidates":[{"content":{"parts":[{"text":"lo"}],"role":"model"},"finishReason":"STOP"}],"#
            + #""usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":2,"totalTokenCount":4}}"#
            + "\r\n\r\n",
    ]

    /// What one run of the calls saw.
    struct Outcome: Equatable {
        var book: Book
        var bookRetries: Int
        var streamed: [String]
        var tokens: Int?
        var models: [String]
        var failure: String
    }

    static func run(_ client: GeminiAPIClient) async throws -> Outcome {
        let schema = GeminiSchema.object(
            properties: ["title": .string(), "year": .integer()], required: ["title", "year"])
        let book = try await client.generateStructured(
            Book.self, label: "book", prompt: "Name a book", schema: schema)
        var streamed: [String] = []
        for try await chunk in client.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: [Content.user("Say hello")]))
        {
            streamed.append(chunk.text)
        }
        let tokens = try await client.countTokens(contents: [Content.user("Count me")]).totalTokens
        let models = try await client.listModels(pageSize: 2).models?.compactMap(\.name) ?? []
        var failure = ""
        do {
            _ = try await client.generateText(
                label: "t", contents: [Content.user("Hi")], retryPolicy: .minimal)
        } catch let error as GeminiError {
            failure = error.description(language: "en")
        }
        return Outcome(
            book: book.value, bookRetries: book.retryCount, streamed: streamed, tokens: tokens,
            models: models,
            failure: failure)
    }

    @Test func aReplayGivesTheRecordedResultsWithoutKeyOrWaits() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([
            .body(503, ["content-type": "application/json", "retry-after": "1"], Self.unavailable),
            .body(200, ["content-type": "application/json"], Self.book),
            .chunks(200, ["content-type": "text/event-stream"], Self.events),
            .body(200, ["content-type": "application/json"], #"{"totalTokens": 3}"#),
            .body(
                200, ["content-type": "application/json"],
                #"{"models": [{"name": "models/gemini-2.5-flash"}]}"#),
            .failure(.transport(.connectionLost, detail: "Connection reset by peer")),
            .failure(.transport(.connectionLost, detail: "Connection reset by peer")),
            .failure(.transport(.connectionLost, detail: "Connection reset by peer")),
        ])
        let recordSleeps = TapeLog<Duration>()
        let recorder = try GeminiTapeRecorder(
            wrapping: inner, tapeURL: url, baseURL: Self.baseURL, secrets: [Support.key])
        let recording = GeminiAPIClient(
            configuration: Self.configuration(sleeps: recordSleeps), transport: recorder)
        let recorded = try await Self.run(recording)
        #expect(
            recorded
                == Outcome(
                    book: Book(title: "Dune", year: 1965), bookRetries: 1, streamed: ["Hel", "lo"], tokens: 3,
                    models: ["models/gemini-2.5-flash"],
                    failure: GeminiError.transport(.connectionLost, detail: "Connection reset by peer")
                        .description(language: "en")))
        #expect(recordSleeps.recorded == [.seconds(1), .seconds(1), .seconds(2)])
        #expect(inner.requests.count == 8)
        #expect(inner.requests.allSatisfy { $0.headers["x-goog-api-key"] == Support.key })

        let lines = try Support.lines(url)
        #expect(lines.count == 9)
        #expect(!lines.joined().contains(Support.key))
        #expect(
            lines.compactMap { try? JSONValue(parsing: $0)["request"]?["path"]?.stringValue } == [
                "/v1beta/models/gemini-2.5-flash:generateContent",
                "/v1beta/models/gemini-2.5-flash:generateContent",
                "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                "/v1beta/models/gemini-2.5-flash:countTokens",
                "/v1beta/models?pageSize=2",
                "/v1beta/models/gemini-2.5-flash:generateContent",
                "/v1beta/models/gemini-2.5-flash:generateContent",
                "/v1beta/models/gemini-2.5-flash:generateContent",
            ])

        let skipped = TapeLog<Duration>()
        let replaySleeps = TapeLog<Duration>()
        let configuration = Self.configuration(sleeps: replaySleeps).replayingTape(
            skippedWait: skipped.append)
        let replayer = try GeminiTapeReplayer(contentsOf: url, baseURL: Self.baseURL)
        let replaying = GeminiAPIClient(configuration: configuration, transport: replayer)
        #expect(try await Self.run(replaying) == recorded)
        #expect(replayer.remainingCount == 0)
        #expect(replaySleeps.recorded == [])
        #expect(skipped.recorded == [.seconds(1), .seconds(1), .seconds(2)])
    }

    @Test func aChangedPromptUnderReplayFailsWithTheDifference() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([.body(200, ["content-type": "application/json"], Self.book)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url, baseURL: Self.baseURL)
        let sleeps = TapeLog<Duration>()
        let recording = GeminiAPIClient(
            configuration: Self.configuration(sleeps: sleeps), transport: recorder)
        _ = try await recording.generateText(label: "t", contents: [Content.user("Name a book")])

        let replayer = try GeminiTapeReplayer(contentsOf: url, baseURL: Self.baseURL)
        let replaying = GeminiAPIClient(
            configuration: Self.configuration(sleeps: sleeps).replayingTape(), transport: replayer)
        await #expect(
            throws: GeminiTapeError.mismatch(
                GeminiTapeMismatch(
                    request: 1, line: 2, field: .body, jsonPath: "$.contents[0].parts[0].text",
                    recorded: "\"Name a book\"", got: "\"Name a film\""))
        ) {
            try await replaying.generateText(label: "t", contents: [Content.user("Name a film")])
        }
        #expect(inner.requests.count == 1)
    }

    @Test func aMismatchConsumesItsExchangeSoTheRestOfTheReplayStaysAligned() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([
            .body(200, ["content-type": "application/json"], Self.book),
            .body(200, ["content-type": "application/json"], Self.book),
        ])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url, baseURL: Self.baseURL)
        let sleeps = TapeLog<Duration>()
        let recording = GeminiAPIClient(
            configuration: Self.configuration(sleeps: sleeps), transport: recorder)
        let first = try await recording.generateText(label: "t", contents: [Content.user("Name a book")])
        _ = try await recording.generateText(label: "t", contents: [Content.user("Name a poem")])

        let replayer = try GeminiTapeReplayer(contentsOf: url, baseURL: Self.baseURL)
        let replaying = GeminiAPIClient(
            configuration: Self.configuration(sleeps: sleeps).replayingTape(), transport: replayer)
        await #expect(
            throws: GeminiTapeError.mismatch(
                GeminiTapeMismatch(
                    request: 1, line: 2, field: .body, jsonPath: "$.contents[0].parts[0].text",
                    recorded: "\"Name a book\"", got: "\"Name a film\""))
        ) {
            try await replaying.generateText(label: "t", contents: [Content.user("Name a film")])
        }
        #expect(replayer.answeredCount == 1)
        let second = try await replaying.generateText(label: "t", contents: [Content.user("Name a poem")])
        #expect(second.value == first.value)
        #expect(replayer.remainingCount == 0)
        await #expect(
            throws: GeminiTapeError.exhausted(
                request: 3, method: "POST", path: "/v1beta/models/gemini-2.5-flash:generateContent")
        ) {
            try await replaying.generateText(label: "t", contents: [Content.user("Name a poem")])
        }
    }
}
