import Foundation
import SophonCore
import SophonGemini
import Synchronization
import Testing

/// Every client sample of docs/library.md, run over canned replies with exact results. The
/// sample code here is the guide's, line for line; only the `#expect`s are added.
@Suite struct LibraryGuideSamplesTests {
    // MARK: Configuration

    @Test func seedConfigurationKeepsItsValuesAndLogsThroughTheHandler() async throws {
        let configuration = GeminiClientConfiguration.myApp
        #expect(configuration.keychainAccount == "com.myapp.geminiAPIKey")
        #expect(configuration.defaultModel == .gemini38Flash)
        #expect(configuration.fallbackModel == .gemini31FlashLite)
        #expect(
            configuration.availableModels.map(\.id) == [
                "gemini-3.1-flash-lite", "gemini-3.1-pro-preview", "gemini-3.5-flash-lite",
                "gemini-3.8-flash",
            ])
        #expect(configuration.retryPolicy == .default)
        #expect(GeminiAPIClient.shared.configuration.keychainAccount == "com.myapp.geminiAPIKey")

        // docs/library.md, "Configuration": a copy of the configuration for a test
        var testing = GeminiClientConfiguration.myApp
        testing.apiKeyProvider = { "test-key" }
        let transport = CannedTransport([(status: 200, body: answer(#"{"title": "Dune"}"#))])
        let client = GeminiAPIClient(configuration: testing, transport: transport)
        let result = try await client.generateStructured(
            Extraction.self, label: "extract", prompt: "Title of the novel by Frank Herbert?",
            schema: .object(properties: ["title": .string()], required: ["title"]))

        #expect(result.value.title == "Dune")
        #expect(result.modelID == "gemini-3.8-flash")
        #expect(transport.requests.map(\.url.path) == ["/v1beta/models/gemini-3.8-flash:generateContent"])
        #expect(transport.requests.first?.headers["x-goog-api-key"] == "test-key")
        #expect(
            MyLogger.lines.withLock { $0 }.contains(
                "debug: extract: POST /v1beta/models/gemini-3.8-flash:generateContent (attempt 1)"))
    }

    @Test func everyConfigurationFieldIsSettable() throws {
        let settings = FileManager.default.temporaryDirectory
            .appendingPathComponent("myapp-\(UUID().uuidString)/settings.json")
        let configuration = GeminiClientConfiguration(
            keychainAccount: "com.myapp.geminiAPIKey",
            defaultModel: .gemini38Flash,
            fallbackModel: .gemini35FlashLite,
            availableModels: [.gemini35FlashLite, .gemini36Flash, .gemini38Flash],
            baseURL: URL(string: "http://127.0.0.1:8080")!,
            requestTimeout: .seconds(30),
            callTimeout: .seconds(90),
            retryPolicy: .minimal,
            logHandler: SophonLogger.standardError(minimumLevel: .info),
            modelStore: JSONFileGeminiModelStore(fileURL: settings)
        )
        #expect(configuration.fallbackModel == .gemini35FlashLite)
        #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(configuration.requestTimeout == .seconds(30))
        #expect(configuration.callTimeout == .seconds(90))
        #expect(configuration.retryPolicy == .minimal)
        #expect(configuration.maxMediaParts == 16)
        #expect(configuration.maxInlineMediaBytes == 20_000_000)
        #expect(configuration.modelStore.loadSelection() == nil)
    }

    // MARK: Structured output and retry policies

    struct Movie: Decodable, Sendable {
        let title: String
        let year: Int
        let tags: [String]
    }

    static let movieSchema = GeminiSchema.object(
        properties: [
            "title": .string(description: "The film's title"),
            "year": .integer(minimum: 1888),
            "tags": .array(items: .string()),
        ],
        required: ["title", "year", "tags"])

    @Test func generateStructuredWithAPerCallPolicy() async throws {
        let (client, transport) = cannedClient([
            (status: 200, body: answer(#"{"title": "Dune", "year": "2021", "tags": ["sci-fi", "epic"]}"#))
        ])
        let result = try await client.generateStructured(
            Movie.self, label: "movie", prompt: "Name one film by Denis Villeneuve.",
            schema: Self.movieSchema, retryPolicy: .minimal)

        #expect(result.value.title == "Dune")
        #expect(result.value.year == 2021)
        #expect(result.value.tags == ["sci-fi", "epic"])
        #expect(result.coercions == [#"$.year: string "2021" read as number 2021"#])
        #expect(result.retryCount == 0)
        #expect(result.usage?.totalTokenCount == 20)
        let body = try JSONValue(
            parsing: String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self))
        #expect(
            body["generationConfig"]?.compactText
                == #"{"responseMimeType":"application/json","responseSchema":{"type":"OBJECT","properties":{"title":{"type":"STRING","description":"The film's title"},"year":{"type":"INTEGER","minimum":1888},"tags":{"type":"ARRAY","items":{"type":"STRING"}}},"required":["title","year","tags"],"propertyOrdering":["title","year","tags"]}}"#
        )
    }

    @Test func aCustomPolicyRetriesAnOverloadedServer() async throws {
        let patient = GeminiRetryPolicy(
            attempts: 5, baseDelay: .milliseconds(500), maxDelay: .seconds(4), jitter: 0,
            honoursServerWait: true, maxServerWait: .seconds(20), fallbackOn404: true, downscale: false)
        #expect(patient.computedWait(beforeRetry: 1, random: 0) == .milliseconds(500))
        #expect(patient.computedWait(beforeRetry: 3, random: 0) == .seconds(2))
        #expect(patient.computedWait(beforeRetry: 5, random: 0) == .seconds(4))

        let waits = Mutex<[Duration]>([])
        let overloaded =
            #"{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}"#
        let (client, transport) = cannedClient(
            [
                (status: 503, body: overloaded), (status: 503, body: overloaded),
                (status: 200, body: answer("Hi!")),
            ],
            sleep: { wait in waits.withLock { $0.append(wait) } })
        let reply = try await client.generateText(
            label: "hello", contents: [.user("Say hi.")], retryPolicy: patient)

        #expect(reply.value == "Hi!")
        #expect(reply.retryCount == 2)
        #expect(waits.withLock { $0 } == [.milliseconds(500), .seconds(1)])
        #expect(transport.requests.count == 3)
    }

    // MARK: Text, send, streaming, tokens, models

    @Test func generateTextMultiTurn() async throws {
        let (client, transport) = cannedClient([(status: 200, body: answer("Denis Villeneuve."))])
        let conversation: [Content] = [
            .user("Recommend a film."),
            .model("Try Arrival (2016)."),
            .user("Who directed it?"),
        ]
        let reply = try await client.generateText(
            label: "followUp", contents: conversation,
            systemInstruction: Content(role: nil, parts: [.text("Answer in one sentence.")]),
            generationConfig: GenerationConfig(maxOutputTokens: 64, temperature: 0.2))

        #expect(reply.value == "Denis Villeneuve.")
        #expect(reply.finishReason == .stop)
        let body = String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
        #expect(
            body
                == #"{"contents":[{"role":"user","parts":[{"text":"Recommend a film."}]},{"role":"model","parts":[{"text":"Try Arrival (2016)."}]},{"role":"user","parts":[{"text":"Who directed it?"}]}],"systemInstruction":{"parts":[{"text":"Answer in one sentence."}]},"generationConfig":{"maxOutputTokens":64,"temperature":0.2}}"#
        )
    }

    struct Identification: Decodable, Sendable { let species: String }

    /// A PNG signature followed by a few bytes: enough for the MIME sniffer.
    static let photo = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01])

    @Test func sendBuildsEachAttemptFromItsVariant() async throws {
        let (client, transport) = cannedClient([
            (status: 200, body: answer(#"{"species": "Monstera deliciosa"}"#))
        ])
        let photo = Self.photo
        let identifySchema = GeminiSchema.object(properties: ["species": .string()], required: ["species"])
        let variants = Mutex<[GeminiRequestVariant]>([])
        let result = try await client.send(Identification.self, label: "identify") { variant in
            variants.withLock { $0.append(variant) }
            let parts = try await client.encodeImages([photo], variant: variant)
            return client.buildRequest(
                parts: parts, promptText: "Which plant is this?", responseSchema: identifySchema)
        }

        #expect(result.value.species == "Monstera deliciosa")
        #expect(
            variants.withLock { $0 } == [
                GeminiRequestVariant(modelID: "gemini-3.1-flash-lite", compressMedia: false, attempt: 1)
            ])
        let body = try JSONValue(
            parsing: String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self))
        #expect(
            body["contents"]?.compactText
                == #"[{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAQ=="}},{"text":"Which plant is this?"}]}]"#
        )
    }

    @Test func theSeedsSendShapeRunsAsWritten() async throws {
        let (client, transport) = cannedClient([
            (status: 200, body: answer(#"{"species": "Ficus lyrata"}"#))
        ])
        let images = [Self.photo]
        let prompt = "Which plant is this?"
        let apiKey = "unused: the client sends its own key"
        let schema = GeminiSchema.object(properties: ["species": .string()], required: ["species"])
        let result = try await client.send(MyResult.self, label: "identify") { variant in
            let parts = try await client.encodeImages(images, variant: variant)
            return try client.buildRequest(
                parts: parts, promptText: prompt, apiKey: apiKey, modelID: variant.modelID,
                responseSchema: schema)
        }

        #expect(result.value.species == "Ficus lyrata")
        let body = String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
        #expect(!body.contains("unused"))
        #expect(transport.requests[0].headers["x-goog-api-key"] == "test-key")
        #expect(throws: GeminiError.invalidModelID("bad/model")) {
            try client.buildRequest(
                parts: [], promptText: prompt, apiKey: apiKey, modelID: "bad/model", responseSchema: nil)
        }
    }

    @Test func streamingDeliversChunksAsTheyArrive() async throws {
        let events = [
            #"data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Once upon "}]}}]}"#,
            #"data: {"candidates":[{"content":{"role":"model","parts":[{"text":"a time."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":4,"totalTokenCount":9}}"#,
        ]
        let (client, transport) = cannedClient([
            (status: 200, body: events.joined(separator: "\r\n\r\n") + "\r\n\r\n")
        ])

        var pieces: [String] = []
        var accumulator = GeminiStreamAccumulator()
        let request = GenerateContentRequest(contents: [.user("Tell a very short story.")])
        for try await chunk in client.streamGenerateContent(label: "story", request: request) {
            pieces.append(chunk.text)
            accumulator.add(chunk)
        }

        #expect(pieces == ["Once upon ", "a time."])
        #expect(accumulator.text == "Once upon a time.")
        #expect(accumulator.finishReason == .stop)
        #expect(accumulator.usage?.totalTokenCount == 9)
        #expect(transport.requests[0].url.query == "alt=sse")
    }

    @Test func countTokensAndListModels() async throws {
        let (client, transport) = cannedClient([
            (status: 200, body: #"{"totalTokens": 7}"#),
            (
                status: 200,
                body:
                    #"{"models": [{"name": "models/gemini-3.8-flash", "displayName": "Gemini 3.8 Flash"}], "nextPageToken": "page2"}"#
            ),
            (status: 200, body: #"{"models": [{"name": "models/gemini-3.5-flash-lite"}]}"#),
        ])
        let count = try await client.countTokens(contents: [.user("How many tokens is this?")])
        #expect(count.totalTokens == 7)

        let models = try await client.listAllModels(pageSize: 1)
        #expect(models.map(\.id) == ["gemini-3.8-flash", "gemini-3.5-flash-lite"])
        #expect(
            transport.requests.map { $0.url.path + "?" + ($0.url.query ?? "") } == [
                "/v1beta/models/gemini-3.1-flash-lite:countTokens?", "/v1beta/models?pageSize=1",
                "/v1beta/models?pageSize=1&pageToken=page2",
            ])
    }

    @Test func generateJSONReturnsTheValueTheSchemaChose() async throws {
        let reply = """
            Here you go:
            ```json
            {"title": "Arrival", "year": 2016.0, "tags": "sci-fi",}
            ```
            """
        let (client, _) = cannedClient([(status: 200, body: answer(reply))])
        let request = GenerateContentRequest(contents: [.user("One film by Denis Villeneuve, as JSON.")])
        let result = try await client.generateJSON(label: "film", request: request, schema: Self.movieSchema)

        #expect(result.value.compactText == #"{"title":"Arrival","year":2016.0,"tags":["sci-fi"]}"#)
        #expect(result.coercions == [#"$.tags: string "sci-fi" wrapped as array"#])
    }
}
