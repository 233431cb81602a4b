import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// The client over a scripted transport: the issue's six exact cases and request shape.
@Suite struct ClientUnitTests {
    struct Movie: Decodable, Sendable, Equatable {
        let title: String
        let year: Int
    }

    static let movieSchema = GeminiSchema.object(
        properties: ["title": .string(), "year": .integer()], required: ["title", "year"])

    func client(_ replies: [ScriptedTransport.Reply], policy: GeminiRetryPolicy = .default)
        -> (GeminiAPIClient, ScriptedTransport, SleepRecorder)
    {
        let transport = ScriptedTransport(replies)
        let recorder = SleepRecorder()
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: recorder), transport: transport)
        return (client, transport, recorder)
    }

    static func reply(_ text: String, finish: String = "STOP") -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        return """
            {"candidates": [{"content": {"parts": [{"text": \(escaped)}], "role": "model"},
              "finishReason": "\(finish)"}],
             "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}
            """
    }

    @Test func unknownFinishReasonKeepsTextAndRawValue() async throws {
        let (client, _, _) = client([.json(200, Self.reply("Done.", finish: "BRAND_NEW_REASON"))])
        let result = try await client.generateText(label: "t", contents: [.user("hi")])
        #expect(result.value == "Done.")
        #expect(result.finishReason?.rawValue == "BRAND_NEW_REASON")
        #expect(result.usage?.totalTokenCount == 5)
        #expect(result.retryCount == 0)
    }

    @Test func thoughtPartsAreKeptApartFromTheAnswer() async throws {
        let body = """
            {"candidates": [{"content": {"role": "model", "parts": [
              {"text": "Let me think about the moon.", "thought": true},
              {"text": "Considering orbits.", "thought": true},
              {"text": "The moon orbits the Earth."},
              {"text": "", "thoughtSignature": "c2lnbmF0dXJl"}]}, "finishReason": "STOP", "index": 0}]}
            """
        let (client, _, _) = client([.json(200, body)])
        let result = try await client.generateText(label: "t", contents: [.user("moon?")])
        #expect(result.value == "The moon orbits the Earth.")
        #expect(result.response.thoughtText == "Let me think about the moon.Considering orbits.")
    }

    @Test func streamedUsageKeepsTheLastNonNilUsage() async throws {
        let events = [
            #"data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":1,"totalTokenCount":5}}"#,
            #"data: {"candidates":[{"content":{"parts":[{"text":"lo"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6}}"#,
            #"data: {"candidates":[{"content":{"parts":[{"text":"!"}],"role":"model"},"finishReason":"STOP"}]}"#,
            #"data: {"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8}}"#,
        ]
        let (client, transport, _) = client([.stream([events.joined(separator: "\r\n\r\n") + "\r\n\r\n"])])
        var accumulator = GeminiStreamAccumulator()
        for try await chunk in client.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
        {
            accumulator.add(chunk)
        }
        #expect(accumulator.text == "Hello!")
        #expect(accumulator.chunkCount == 4)
        #expect(accumulator.finishReason == .stop)
        #expect(
            accumulator.usage
                == UsageMetadata(promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8))
        #expect(transport.requests.first?.url.query == "alt=sse")
    }

    @Test func fencedJSONDecodes() async throws {
        let text = "Here you go:\n```json\n{\"title\": \"Arrival\", \"year\": 2016}\n```\nEnjoy!"
        let (client, transport, _) = client([.json(200, Self.reply(text))])
        let result = try await client.generateStructured(
            Movie.self, label: "movie", prompt: "A film", schema: Self.movieSchema)
        #expect(result.value == Movie(title: "Arrival", year: 2016))
        let sent = try #require(transport.requests.first)
        #expect(sent.headers["x-goog-api-key"] == "test-key")
        #expect(
            sent.url.absoluteString == "http://127.0.0.1:9/v1beta/models/gemini-3.8-flash:generateContent")
        #expect(!sent.url.absoluteString.contains("test-key"))
        let body = try #require(sent.body.map { String(decoding: $0, as: UTF8.self) })
        #expect(
            body.hasPrefix(
                #"{"contents":[{"role":"user","parts":[{"text":"A film"}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":"#
            ))
    }

    @Test func truncatedJSONAtMaxTokensIsATruncatedError() async throws {
        let partial = "{\"title\": \"Arrival\", \"ye"
        let (client, _, recorder) = client([.json(200, Self.reply(partial, finish: "MAX_TOKENS"))])
        await #expect(throws: GeminiError.truncated(partialText: partial, partialValue: nil)) {
            _ = try await client.generateStructured(
                Movie.self, label: "movie", prompt: "A film", schema: Self.movieSchema)
        }
        #expect(recorder.recorded.isEmpty)
    }

    @Test func truncatedJSONCarriesTheRepairedValueWhenAsked() async throws {
        let partial = "{\"title\": \"Arrival\", \"ye"
        let (client, _, _) = client([.json(200, Self.reply(partial, finish: "MAX_TOKENS"))])
        await #expect(
            throws: GeminiError.truncated(
                partialText: partial, partialValue: .object([JSONMember("title", .string("Arrival"))]))
        ) {
            _ = try await client.generateStructured(
                Movie.self, label: "movie", prompt: "A film", schema: Self.movieSchema, allowPartial: true)
        }
    }

    @Test func schemaPicksTheCandidateAndCoercionsAreReported() async throws {
        let text = "First {\"note\": \"draft\"} then the answer: {\"title\": \"Arrival\", \"year\": \"2016\"}"
        let (client, _, _) = client([.json(200, Self.reply(text))])
        let result = try await client.generateStructured(
            Movie.self, label: "movie", prompt: "A film", schema: Self.movieSchema)
        #expect(result.value == Movie(title: "Arrival", year: 2016))
        #expect(result.coercions == ["$.year: string \"2016\" read as number 2016"])
    }

    @Test func aReplyWithoutJSONIsADecodingFailure() async throws {
        let (client, transport, _) = client([.json(200, Self.reply("Sorry, I cannot help with that."))])
        await #expect(
            throws: GeminiError.decodingFailed(
                reason: "no JSON value found in the text", excerpt: "Sorry, I cannot help with that.")
        ) {
            _ = try await client.generateStructured(
                Movie.self, label: "movie", prompt: "A film", schema: Self.movieSchema)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func wrappedErrorBodyGivesTheSameErrorAsUnwrapped() async throws {
        let error = #"{"error": {"code": 400, "message": "Bad field.", "status": "INVALID_ARGUMENT"}}"#
        var thrown: [GeminiError] = []
        for body in [error, "[\(error)]"] {
            let (client, transport, _) = client([.json(400, body)])
            do {
                _ = try await client.generateText(label: "t", contents: [.user("x")])
            } catch let error as GeminiError {
                thrown.append(error)
            }
            #expect(transport.requests.count == 1)
        }
        #expect(
            thrown
                == Array(
                    repeating: .invalidRequest(
                        message: "Bad field.", fieldViolations: [],
                        server: GeminiServerStatus(
                            status: 400, apiStatus: "INVALID_ARGUMENT", message: "Bad field.")),
                    count: 2))
    }

    @Test func sseEventSplitMidStringGivesOneWholeChunk() async throws {
        let event =
            #"data: {"candidates":[{"content":{"parts":[{"text":"Hello, wonderful world"}],"role":"model"},"finishReason":"STOP"}]}"#
        let cut = event.index(event.startIndex, offsetBy: 60)
        let (client, _, _) = client([.stream([String(event[..<cut]), String(event[cut...]) + "\r\n\r\n"])])
        var chunks: [GenerateContentResponse] = []
        for try await chunk in client.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
        {
            chunks.append(chunk)
        }
        #expect(chunks.count == 1)
        #expect(chunks.first?.text == "Hello, wonderful world")
    }

    @Test func aStoredSelectionOutsideTheCatalogWalksSuccessors() async throws {
        let transport = ScriptedTransport([.json(200, Self.reply("ok"))])
        var configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), store: InMemoryGeminiModelStore(selection: "gemini-2.5-flash"))
        configuration.availableModels = [.gemini35Flash, .gemini38Flash]
        let client = GeminiAPIClient(configuration: configuration, transport: transport)
        #expect(client.selectedModelID == "gemini-3.5-flash")
        _ = try await client.generateText(label: "t", contents: [.user("x")])
        #expect(transport.requests.first?.url.path == "/v1beta/models/gemini-3.5-flash:generateContent")
    }

    @Test(arguments: ["", "gemini 2", "../etc", "a:b", "models/"])
    func malformedModelIDsFailBeforeAnyRequest(id: String) async throws {
        let transport = ScriptedTransport([])
        let client = GeminiAPIClient(configuration: .testing(recorder: SleepRecorder()), transport: transport)
        await #expect(throws: GeminiError.invalidModelID(id)) {
            _ = try await client.generateText(label: "t", contents: [.user("x")], model: .custom(id))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func missingKeyFailsBeforeAnyRequest() async throws {
        let transport = ScriptedTransport([])
        let client = GeminiAPIClient(
            configuration: .testing(key: nil, recorder: SleepRecorder()), transport: transport)
        await #expect(throws: GeminiError.missingAPIKey) {
            _ = try await client.generateText(label: "t", contents: [.user("x")])
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [
        ("{\"candidates\": []}", GeminiError.emptyResponse),
        ("{\"candidates\": [{\"content\": {}, \"finishReason\": \"STOP\"}]}", .emptyResponse),
        (
            "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"\", \"thoughtSignature\": \"AAA=\"}]}, \"finishReason\": \"STOP\"}]}",
            .emptyResponse
        ),
        (
            "{\"promptFeedback\": {\"blockReason\": \"SAFETY\"}}",
            .promptBlocked(reason: .safety, message: nil)
        ),
        (
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Once upon\"}]}, \"finishReason\": \"RECITATION\"}]}",
            .contentBlocked(reason: .recitation, partialText: "Once upon")
        ),
    ])
    func unusableRepliesAreNotRetried(body: String, expected: GeminiError) async throws {
        let (client, transport, recorder) = client([.json(200, body), .json(200, Self.reply("late"))])
        await #expect(throws: expected) {
            _ = try await client.generateText(label: "t", contents: [.user("x")])
        }
        #expect(transport.requests.count == 1)
        #expect(recorder.recorded.isEmpty)
    }
}
