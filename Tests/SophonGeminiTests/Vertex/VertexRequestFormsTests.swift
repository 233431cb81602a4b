import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonGemini

/// What the library sends differently on Vertex AI (docs/vertex.md),
/// against scripts/fake_gemini.py, which answers only Vertex AI's forms on Vertex AI's paths:
/// roles filled, embeddings by `:predict` / Vertex's `:embedContent`, countTokens at the root,
/// the tier in headers, the Interactions API refused before anything is sent.
@Suite(.childSlots) struct VertexRequestFormsTests {
    static let model = "/v1beta1/projects/proj-1/locations/europe-west4/publishers/google/models/"

    static func client(_ server: FakeGeminiServer, tier: String? = nil) async throws -> GeminiAPIClient {
        var configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), baseURL: server.baseURL)
        configuration.backend = .vertex(project: "proj-1", location: "europe-west4")
        configuration.accessTokens = try await VertexIntegrationTests.tokens(server)
        configuration.serviceTier = tier
        return GeminiAPIClient(configuration: configuration)
    }

    /// The calls the server saw (the token grant left out).
    static func calls(_ server: FakeGeminiServer) async throws -> [FakeGeminiServer.SeenRequest] {
        try await server.requests().filter { $0.path != "/token" }
    }

    @Test func aContentWithoutARoleIsSentAsTheUsersTurn() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        let result = try await client.generateText(
            label: "t", contents: [Content(role: nil, parts: [.text("hi")])])
        #expect(result.value == "Hello from the fake Gemini server.")
        let conversation: [Content] = ["one", Content(role: "model", parts: [.text("two")]), "three"]
        for try await _ in client.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: conversation))
        {}
        _ = try await client.countTokens(contents: ["count me"])
        let bodies = try await Self.calls(server).map(\.body)
        #expect(bodies[0]["contents"]?[0]?["role"] == .string("user"))
        #expect(
            (0..<3).map { bodies[1]["contents"]?[$0]?["role"] } == [
                .string("user"), .string("model"), .string("user"),
            ])
        #expect(bodies[2]["contents"]?[0]?["role"] == .string("user"))
    }

    @Test func theDeveloperAPIGetsTheContentsAsGiven() async throws {
        let server = try await FakeGeminiServer()
        let configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), baseURL: server.baseURL)
        _ = try await GeminiAPIClient(configuration: configuration).generateText(
            label: "t", contents: [Content(role: nil, parts: [.text("hi")])])
        #expect(try await server.requests().first?.body["contents"]?[0]?["role"] == nil)
    }

    @Test func gemini001EmbedsByPredictOneTextARequest() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        let options = GeminiEmbeddingOptions(
            taskType: .retrievalDocument, title: "T", outputDimensionality: 8)
        let vectors = try await client.batchEmbedContents(
            ["red apple", "green pear"], model: GeminiModel(id: "gemini-embedding-001"), options: options)
        #expect(vectors.map(\.dimensions) == [8, 8])
        let one = try await client.embedContent(
            "red apple", model: GeminiModel(id: "gemini-embedding-001"), options: options)
        #expect(one == vectors[0])
        let calls = try await Self.calls(server)
        #expect(calls.map(\.path) == Array(repeating: Self.model + "gemini-embedding-001:predict", count: 3))
        #expect(
            calls[1].bodyText
                == #"{"instances":[{"content":"green pear","task_type":"RETRIEVAL_DOCUMENT","title":"T"}],"parameters":{"outputDimensionality":8}}"#
        )
    }

    @Test func otherGeminiEmbeddingModelsUseVertexsEmbedContentForm() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        let vectors = try await client.batchEmbedContents(
            ["a b", "c d"], model: GeminiModel(id: "gemini-embedding-2"),
            options: GeminiEmbeddingOptions(taskType: .semanticSimilarity, outputDimensionality: 4))
        #expect(vectors.map(\.dimensions) == [4, 4])
        let calls = try await Self.calls(server)
        #expect(
            calls.map(\.path) == Array(repeating: Self.model + "gemini-embedding-2:embedContent", count: 2))
        #expect(
            calls[0].bodyText
                == #"{"content":{"parts":[{"text":"a b"}]},"embedContentConfig":{"taskType":"SEMANTIC_SIMILARITY","outputDimensionality":4}}"#
        )
    }

    @Test func countTokensOfAWholeRequestSendsItsFieldsAtTheRoot() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        let request = GenerateContentRequest(
            contents: [Content(role: nil, parts: [.text("three words here")])], systemInstruction: "be brief",
            generationConfig: GenerationConfig(temperature: 0.5))
        let counted = try await client.countTokens(request: request)
        #expect(counted.totalTokens == 5)
        let call = try await Self.calls(server)[0]
        #expect(call.path == Self.model + "gemini-3.8-flash:countTokens")
        #expect(
            call.bodyText
                == #"{"contents":[{"role":"user","parts":[{"text":"three words here"}]}],"systemInstruction":{"parts":[{"text":"be brief"}]},"generationConfig":{"temperature":0.5}}"#
        )
    }

    @Test func priorityAndFlexAreAskedInVertexsHeadersAndReportedAsTiers() async throws {
        let server = try await FakeGeminiServer()
        for tier in ["priority", "flex"] {
            var request = GenerateContentRequest(contents: ["hi"])
            request.serviceTier = tier
            let result = try await Self.client(server, tier: tier).generateText(label: "t", request: request)
            #expect(
                result.response.usageMetadata?.trafficType
                    == (tier == "flex" ? "ON_DEMAND_FLEX" : "ON_DEMAND_PRIORITY"))
            #expect(result.response.usageMetadata?.servedTier == tier)
            let headers = try await Self.calls(server).last?.headers ?? [:]
            #expect(headers["x-vertex-ai-llm-request-type"] == "shared")
            #expect(headers["x-vertex-ai-llm-shared-request-type"] == tier)
        }
        _ = try await Self.client(server, tier: "standard").generateText(label: "t", contents: ["hi"])
        let standard = try await Self.calls(server).last?.headers ?? [:]
        #expect(standard["x-vertex-ai-llm-shared-request-type"] == nil)
        #expect(GeminiBackend.developer.tierHeaders("priority") == [:])
    }

    @Test func onlyGenerationRequestsCarryTheTierHeaders() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server, tier: "flex")
        for try await _ in client.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: ["hi"]))
        {}
        let cache = try await client.createCachedContent(
            GeminiCacheRequest(contents: ["a long context"], displayName: "c"))
        _ = try await client.listCachedContents()
        _ = try await client.getCachedContent(cache.name ?? "")
        _ = try await client.extendCachedContent(cache.name ?? "", ttl: .seconds(60))
        try await client.deleteCachedContent(cache.name ?? "")
        _ = try await client.countTokens(contents: ["count me"])
        let seen = try await server.requests()
        #expect(seen.map(\.path).first == "/token")
        #expect(
            seen.map { $0.headers["x-vertex-ai-llm-shared-request-type"] } == [
                nil, "flex", nil, nil, nil, nil, nil, nil,
            ],
            "\(seen.map { "\($0.method) \($0.path)" })")
    }

    @Test func servedTierNamesVertexsTrafficTypes() throws {
        func tier(_ traffic: String?, _ service: String? = nil) -> String? {
            var usage = UsageMetadata()
            usage.trafficType = traffic
            usage.serviceTier = service
            return usage.servedTier
        }
        #expect(tier("ON_DEMAND") == "standard")
        #expect(tier("ON_DEMAND_PRIORITY") == "priority")
        #expect(tier("ON_DEMAND_FLEX") == "flex")
        #expect(tier("PROVISIONED_THROUGHPUT") == "provisioned-throughput")
        #expect(tier(nil, "FLEX") == "flex")
        #expect(tier(nil) == nil)
    }

    @Test func theInteractionsAPIIsRefusedBeforeATokenOrAnythingIsSent() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        do {
            _ = try await client.interactions.create(
                GeminiInteractionRequest(model: GeminiModel(id: "gemini-3.8-flash"), input: .text("hi")),
                label: "i")
            Issue.record("created an interaction on Vertex AI")
        } catch let error as GeminiError {
            #expect(
                error.description(language: "en").contains(
                    "Vertex AI serves the Interactions API only for agents provisioned in a project"))
        }
        #expect(try await server.requests().isEmpty)
    }

    @Test func batchInputFormsAndTheFilesAPIAreRefusedBeforeATokenIsFetched() async throws {
        let server = try await FakeGeminiServer()
        let client = try await Self.client(server)
        let inline: [(key: String, request: GenerateContentRequest)] = [
            ("a", GenerateContentRequest(contents: ["hi"]))
        ]
        await #expect(throws: GeminiError.self) {
            _ = try await client.createBatch(displayName: "d", model: nil, requests: inline)
        }
        await #expect(throws: GeminiError.self) {
            _ = try await client.createBatch(displayName: "d", model: nil, fileName: "files/x")
        }
        await #expect(throws: GeminiError.self) { _ = try await client.listBatches() }
        await #expect(throws: GeminiError.self) { _ = try await client.listFiles() }
        await #expect(throws: GeminiError.self) {
            _ = try await client.uploadFile(data: Data("x".utf8), mimeType: "text/plain")
        }
        #expect(try await server.requests().isEmpty)
    }
}
