import Foundation
import SophonCore
import SophonGemini
import Synchronization
import Testing

/// The samples of docs/library.md for schemas from types, result lists, text prompts, typed
/// tools, files, batches and the side-by-side table, run over canned replies. The sample code
/// is the guide's, line for line (`LibraryGuideSnippetsTests` checks it); only the `#expect`s
/// are added.
@Suite struct LibraryGuideTypedSamplesTests {
    // MARK: Schemas from types

    struct Book: Decodable, Sendable, GeminiSchemaDescribing {
        enum Mood: String, Decodable, Sendable, CaseIterable { case light, thoughtful, dark }
        let title: String
        let author: String
        let year: Int
        let pages: Int?
        let genres: [String]
        let mood: Mood

        static let schemaFacets: [String: GeminiSchemaFacets] = ["pages": "approximate page count"]
    }

    @Test func bookFromItsType() async throws {
        let (client, transport) = cannedClient([
            (
                status: 200,
                body: answer(
                    #"{"title": "Dune", "author": "Frank Herbert", "year": 1965, "genres": ["science fiction"], "mood": "thoughtful"}"#
                )
            )
        ])
        let book = try await client.generateStructured(
            Book.self, label: "book", prompt: "Recommend one classic science-fiction novel.",
            systemInstruction: "Answer with a well-known title.")

        #expect(book.value.title == "Dune")
        #expect(book.value.mood == .thoughtful)
        #expect(
            try GeminiSchema(for: Book.self)
                == GeminiSchema.parseSpec(
                    #"{ title: string, author: string, year: integer, pages?: integer "approximate page count", genres: [string], mood: "light" | "thoughtful" | "dark" }"#
                ))
        #expect(transport.requests.count == 1)
    }

    // MARK: What a result lists

    struct Film: Decodable, Sendable {
        let title: String
        let year: Int
        let tags: [String]
        let rating: Double?
    }

    @Test func filmResultLists() async throws {
        let reply = """
            Here is the film:
            ```json
            {"title": "Dune", "year": "2021", "tags": "sci-fi", "rating": "N/A",}
            ```
            """
        let (client, _) = cannedClient([(status: 200, body: answer(reply))])
        let film = try await client.generateStructured(Film.self, label: "film", prompt: "A film?")

        #expect(film.repairs.map(\.kind) == [.strippedFence, .removedTrailingComma])
        #expect(
            film.coercions == [
                #"$.year: string "2021" read as number 2021"#, #"$.tags: string "sci-fi" wrapped as array"#,
                #"$.rating: string "N/A" removed (read as absent)"#,
            ])
        #expect(film.coercionDetails[0].path == "$.year")
        #expect(film.coercionDetails[0].from == .string("2021"))
        #expect(film.coercionDetails[0].to == .integer(2021))
    }

    // MARK: Text

    @Test func helloFromAPrompt() async throws {
        let (client, transport) = cannedClient([(status: 200, body: answer("Hi!"))])
        let hello = try await client.generateText(
            label: "hello", prompt: "Say hi.", systemInstruction: "Answer in one word.")

        #expect(hello.value == "Hi!")
        #expect(
            String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
                == #"{"contents":[{"role":"user","parts":[{"text":"Say hi."}]}],"systemInstruction":{"parts":[{"text":"Answer in one word."}]}}"#
        )
    }

    @Test func aWholeRequestWithSafetySettings() async throws {
        let (client, transport) = cannedClient([(status: 200, body: answer("Why did the chicken... END"))])
        let request = GenerateContentRequest(
            contents: [.user("Tell me a joke.")],
            safetySettings: [
                SafetySetting(category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH")
            ],
            generationConfig: GenerationConfig(stopSequences: ["END"], topP: 0.9, seed: 42))
        let joke = try await client.generateText(label: "joke", request: request)

        #expect(joke.value == "Why did the chicken... END")
        let body = try JSONValue(
            parsing: String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self))
        #expect(body["safetySettings"]?[0]?["threshold"] == .string("BLOCK_ONLY_HIGH"))
    }

    // MARK: Tools

    struct WeatherQuery: Decodable, Sendable { var city: String }
    struct Weather: Encodable, Sendable { var tempC: Int }

    static func calls(_ parts: String) -> String {
        #"{"candidates": [{"content": {"role": "model", "parts": \#(parts)}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 2, "totalTokenCount": 10}}"#
    }

    @Test func oneToolFromItsArgumentsType() async throws {
        let (client, transport) = cannedClient([
            (
                status: 200,
                body: Self.calls(#"[{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}]"#)
            ),
            (status: 200, body: answer("4 °C in Oslo.")),
        ])
        let weather = try GeminiFunctionHandler(
            name: "get_weather", description: "Current weather for one city", arguments: WeatherQuery.self
        ) { query in Weather(tempC: query.city == "Oslo" ? 4 : 18) }

        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "weather", conversation: &conversation, prompt: "Weather in Oslo?", handlers: [weather])

        #expect(run.text == "4 °C in Oslo.")
        #expect(run.rounds == 2)
        #expect(run.usage.totalTokenCount == 30)
        #expect(
            weather.declaration.jsonValue.compactText
                == #"{"name":"get_weather","description":"Current weather for one city","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING"}},"required":["city"],"propertyOrdering":["city"]}}"#
        )
        let second = try JSONValue(
            parsing: String(decoding: transport.requests[1].body ?? Data(), as: UTF8.self))
        #expect(
            second["contents"]?[2]?.compactText
                == #"{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"tempC":4}}}]}"#
        )
    }

    // MARK: Files

    static let processing =
        #"{"name": "files/f1", "mimeType": "video/mp4", "uri": "https://example.com/files/f1", "state": "PROCESSING"}"#

    @Test func uploadWaitAndAsk() async throws {
        let transport = FilesTransport()
        let waits = Mutex<[Duration]>([])
        let client = GeminiAPIClient(
            configuration: GeminiClientConfiguration(
                apiKeyProvider: { "test-key" }, sleep: { wait in waits.withLock { $0.append(wait) } }),
            transport: transport)
        let video = Data(repeating: 7, count: 1000)

        let file = try await client.uploadFile(
            data: video, mimeType: "video/mp4", displayName: "clip.mp4"
        ) { sent, total in print("\(sent)/\(total) bytes") }
        let ready = try await client.waitUntilActive(file)  // polls 1 s, 2 s, 4 s ... 10 s
        let answer = try await client.generateText(
            label: "video", prompt: [.file(ready), .text("What happens?")])

        #expect(ready.processingState == .active)
        #expect(answer.value == "A cat jumps.")
        #expect(waits.withLock { $0 } == [.seconds(1)])
    }

    /// Answers the resumable upload, the file lookups and one generateContent.
    final class FilesTransport: GeminiTransport {
        private let looks = Mutex(0)

        func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
            let path = request.url.path
            if path == "/upload/v1beta/files" {
                return GeminiHTTPResponse(
                    status: 200, headers: ["x-goog-upload-url": "http://127.0.0.1:9/upload/session-1"],
                    body: .data(Data()))
            }
            if path == "/upload/session-1" {
                return GeminiHTTPResponse(
                    status: 200, headers: ["x-goog-upload-status": "final"],
                    body: .data(Data(#"{"file": \#(LibraryGuideTypedSamplesTests.processing)}"#.utf8)))
            }
            if path == "/v1beta/files/f1" {
                let look = looks.withLock { count in
                    count += 1
                    return count
                }
                let file = LibraryGuideTypedSamplesTests.processing
                return GeminiHTTPResponse(
                    status: 200, headers: [:],
                    body: .data(
                        Data(
                            (look == 1 ? file : file.replacingOccurrences(of: "PROCESSING", with: "ACTIVE"))
                                .utf8)))
            }
            return GeminiHTTPResponse(
                status: 200, headers: [:], body: .data(Data(answer("A cat jumps.").utf8)))
        }
    }

    // MARK: Batch

    static func operation(_ state: String, _ keys: [String]) -> String {
        let items = keys.map { key in
            #"{"metadata": {"key": "\#(key)"}, "response": {"candidates": [{"content": {"role": "model", "parts": [{"text": "\#(key.uppercased())."}]}, "finishReason": "STOP"}]}}"#
        }
        let output =
            keys.isEmpty
            ? ""
            : #", "output": {"inlinedResponses": {"inlinedResponses": [\#(items.joined(separator: ","))]}}"#
        return #"{"name": "batches/b1", "metadata": {"state": "\#(state)"\#(output)}}"#
    }

    @Test func aNightlyBatchWaitedFor() async throws {
        let waits = Mutex<[Duration]>([])
        let (client, transport) = cannedClient(
            [
                (status: 200, body: Self.operation("BATCH_STATE_PENDING", [])),
                (status: 200, body: Self.operation("BATCH_STATE_RUNNING", [])),
                (status: 200, body: Self.operation("BATCH_STATE_SUCCEEDED", ["a", "b"])),
            ], sleep: { wait in waits.withLock { $0.append(wait) } })
        let job = try await client.createBatch(
            displayName: "nightly",
            requests: [
                GeminiBatchRequest(key: "a", prompt: "Say a."),
                GeminiBatchRequest(key: "b", prompt: "Say b."),
            ])
        let done = try await client.waitUntilDone(job.name)  // polls 1 s, 2 s, 4 s ... 60 s, up to 48 h
        let answers = done.textAnswers  // ["a": .success("A."), "b": .success("B.")]

        #expect(answers == ["a": .success("A."), "b": .success("B.")])
        #expect(waits.withLock { $0 } == [.seconds(1)])
        #expect(transport.requests.count == 3)
    }

    // MARK: Side by side with google-genai

    struct Recipe: Decodable, Sendable {
        let name: String
        let minutes: Int
        let ingredients: [String]
    }

    @Test func sideBySideStructuredOutput() async throws {
        let (client, _) = cannedClient([
            (
                status: 200,
                body: answer(
                    #"{"name": "Aglio e olio", "minutes": 15, "ingredients": ["spaghetti", "garlic"]}"#)
            )
        ])
        let recipe = try await client.generateStructured(
            Recipe.self, label: "recipe", prompt: "A quick pasta recipe.")
        print(recipe.value.name)

        #expect(recipe.value.minutes == 15)
    }

    struct City: Decodable, Sendable { let city: String }

    @Test func sideBySideTwoTools() async throws {
        let (client, _) = cannedClient([
            (
                status: 200,
                body: Self.calls(
                    #"[{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}, {"functionCall": {"name": "get_time", "args": {"city": "Oslo"}}}]"#
                )
            ),
            (status: 200, body: answer("4 °C at 12:00.")),
        ])
        let weather = try GeminiFunctionHandler(
            name: "get_weather", description: "Weather in a city", arguments: City.self
        ) { _ in ["tempC": 4] }
        let time = try GeminiFunctionHandler(
            name: "get_time", description: "Local time in a city", arguments: City.self
        ) { _ in "12:00" }
        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "trip", conversation: &conversation, prompt: "Weather and time in Oslo?",
            handlers: [weather, time])
        print(run.text)

        #expect(run.text == "4 °C at 12:00.")
        #expect(run.calls.map(\.name) == ["get_weather", "get_time"])
    }

    @Test func sideBySideStreaming() async throws {
        let sse =
            "data: {\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"Once upon \"}]}}]}\r\n\r\n"
            + "data: {\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"a time.\"}]}, \"finishReason\": \"STOP\"}]}\r\n\r\n"
        let (client, _) = cannedClient([(status: 200, body: sse)])
        var story = ""
        for try await chunk in client.streamGenerateContent(
            label: "story", prompt: "Tell a very short story.")
        {
            print(chunk.text, terminator: "")
            story += chunk.text
        }

        #expect(story == "Once upon a time.")
    }

    @Test func sideBySideFileUpload() async throws {
        let client = GeminiAPIClient(
            configuration: GeminiClientConfiguration(apiKeyProvider: { "test-key" }, sleep: { _ in }),
            transport: FilesTransport())
        let videoURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "clip-\(UUID().uuidString).mp4")
        try Data(repeating: 7, count: 1000).write(to: videoURL)
        defer { try? FileManager.default.removeItem(at: videoURL) }

        let file = try await client.uploadFile(contentsOf: videoURL, mimeType: "video/mp4")
        let ready = try await client.waitUntilActive(file)
        let answer = try await client.generateText(
            label: "video", prompt: [.file(ready), .text("What happens?")])
        print(answer.value)

        #expect(answer.value == "A cat jumps.")
    }

    @Test func sideBySideSmallBatch() async throws {
        let (client, _) = cannedClient([
            (status: 200, body: Self.operation("BATCH_STATE_PENDING", [])),
            (status: 200, body: Self.operation("BATCH_STATE_SUCCEEDED", ["a", "b"])),
        ])
        let job = try await client.createBatch(
            displayName: "small",
            requests: [
                GeminiBatchRequest(key: "a", prompt: "Say a."),
                GeminiBatchRequest(key: "b", prompt: "Say b."),
            ])
        let done = try await client.waitUntilDone(job.name)
        for (key, answer) in done.textAnswers { print(key, (try? answer.get()) ?? "failed") }

        #expect(done.textAnswers.count == 2)
    }
}
