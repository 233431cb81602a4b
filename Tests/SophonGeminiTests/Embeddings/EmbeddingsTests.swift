import Foundation
import Testing

@testable import SophonGemini

/// `embedContent` and `batchEmbedContents`: exact bodies, splitting by 100, the one retry path,
/// and the Float32 vector helpers.
struct EmbeddingsTests {
    static func vectors(_ count: Int, base: Int = 0) -> String {
        let items = (0..<count).map { #"{"values":[\#(base + $0),0.5]}"# }
        return #"{"embeddings":["# + items.joined(separator: ",") + "]}"
    }

    static func client(_ transport: ScriptedTransport, recorder: SleepRecorder = SleepRecorder())
        -> GeminiAPIClient
    {
        GeminiAPIClient(configuration: .testing(recorder: recorder), transport: transport)
    }

    @Test func embedContentSendsTheExactBodyAndReadsTheVector() async throws {
        let transport = ScriptedTransport([.json(200, #"{"embedding":{"values":[0.25,-1,3]}}"#)])
        let embedding = try await Self.client(transport).embedContent(
            "héllo \"x\"", model: .custom("gemini-embedding-001"),
            options: GeminiEmbeddingOptions(
                taskType: .retrievalDocument, title: "T", outputDimensionality: 768))
        #expect(embedding.values == [0.25, -1, 3])
        let request = try #require(transport.requests.first)
        #expect(request.url.path == "/v1beta/models/gemini-embedding-001:embedContent")
        #expect(
            String(decoding: request.body ?? Data(), as: UTF8.self)
                == #"{"content":{"parts":[{"text":"héllo \"x\""}]},"taskType":"RETRIEVAL_DOCUMENT","title":"T","outputDimensionality":768}"#
        )
    }

    @Test func aTitleIsSentOnlyForRetrievalDocuments() {
        let body = GeminiAPIClient.batchEmbedBody(
            ["a", "b"], modelID: "m",
            options: GeminiEmbeddingOptions(taskType: .semanticSimilarity, title: "T"))
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"requests":[{"model":"models/m","content":{"parts":[{"text":"a"}]},"taskType":"SEMANTIC_SIMILARITY"},{"model":"models/m","content":{"parts":[{"text":"b"}]},"taskType":"SEMANTIC_SIMILARITY"}]}"#
        )
    }

    @Test func twoHundredFiftyInputsGoIn100And100And50InOrder() async throws {
        let transport = ScriptedTransport([
            .json(200, Self.vectors(100)), .json(200, Self.vectors(100, base: 100)),
            .json(200, Self.vectors(50, base: 200)),
        ])
        let texts = (0..<250).map { "text \($0)" }
        let embeddings = try await Self.client(transport).batchEmbedContents(
            texts, model: .custom("gemini-embedding-001"),
            options: GeminiEmbeddingOptions(outputDimensionality: 2))
        #expect(embeddings.map { Int($0.values[0]) } == Array(0..<250))
        #expect(transport.requests.count == 3)
        var counts: [Int] = []
        for request in transport.requests {
            #expect(request.url.path == "/v1beta/models/gemini-embedding-001:batchEmbedContents")
            let json = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
            let requests = json?["requests"] as? [[String: Any]] ?? []
            counts.append(requests.count)
            #expect(requests.allSatisfy { $0["outputDimensionality"] as? Int == 2 })
        }
        #expect(counts == [100, 100, 50])
        let third = String(decoding: transport.requests[2].body ?? Data(), as: UTF8.self)
        #expect(
            third.hasPrefix(
                #"{"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"text 200"}]},"outputDimensionality":2}"#
            ))
    }

    @Test func a429IsRetriedByTheOnePath() async throws {
        let recorder = SleepRecorder()
        let transport = ScriptedTransport([
            .json(429, #"{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}"#),
            .json(200, Self.vectors(2)),
        ])
        let embeddings = try await Self.client(transport, recorder: recorder).batchEmbedContents(
            ["a", "b"], model: .custom("gemini-embedding-001"))
        #expect(embeddings.count == 2)
        #expect(transport.requests.count == 2)
        #expect(recorder.recorded.count == 1)
        #expect(transport.requests[0].body == transport.requests[1].body)
    }

    @Test func anEmptyTextIsRefusedBeforeAnyRequest() async throws {
        let transport = ScriptedTransport([])
        await #expect(
            throws: GeminiError.invalidRequest(
                message: "An embedding needs a non-empty text (input 2).", fieldViolations: [])
        ) {
            _ = try await Self.client(transport).batchEmbedContents(["a", "  "], model: .custom("e"))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aReplyWithTooFewEmbeddingsFails() async throws {
        let transport = ScriptedTransport([.json(200, Self.vectors(1))])
        await #expect(
            throws: GeminiError.decodingFailed(
                reason: "batchEmbedContents answered 1 embeddings for 2 texts", excerpt: "")
        ) {
            _ = try await Self.client(transport).batchEmbedContents(["a", "b"], model: .custom("e"))
        }
    }

    /// An embedding with no values is a malformed reply (retried), never an empty vector: an
    /// empty `embed` result or a collection of 0 dimensions.
    @Test func aVectorWithNoValuesIsRetriedAsMalformed() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"embedding":{"values":[]}}"#), .json(200, #"{"embedding":{"values":[1,2]}}"#),
        ])
        let embedding = try await Self.client(transport).embedContent("a", model: .custom("e"))
        #expect(embedding.values == [1, 2])
        #expect(transport.requests.count == 2)
    }

    @Test func aBatchOfEmptyVectorsFailsAfterEveryAttempt() async throws {
        let empty = #"{"embeddings":[{"values":[]},{"values":[]}]}"#
        let transport = ScriptedTransport([.json(200, empty), .json(200, empty), .json(200, empty)])
        await #expect(
            throws: GeminiError.transport(.badResponse, detail: "Undecodable reply: " + empty)
        ) {
            _ = try await Self.client(transport).batchEmbedContents(["a", "b"], model: .custom("e"))
        }
        #expect(transport.requests.count == 3)
    }

    @Test func cosineAndLittleEndianBytes() throws {
        #expect(GeminiEmbedding.cosineSimilarity([1, 0], [0, 1]) == 0)
        #expect(GeminiEmbedding.cosineSimilarity([1, 2], [2, 4]) == 1)
        #expect(GeminiEmbedding.cosineSimilarity([1, 0], [-1, 0]) == -1)
        #expect(GeminiEmbedding.cosineSimilarity([1, 0], [1, 0, 0]) == nil)
        #expect(GeminiEmbedding.cosineSimilarity([0, 0], [1, 0]) == nil)
        let embedding = GeminiEmbedding(values: [1, -2.5])
        #expect(Array(embedding.littleEndianData) == [0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0])
        #expect(GeminiEmbedding(littleEndianData: embedding.littleEndianData) == embedding)
        #expect(GeminiEmbedding(littleEndianData: Data([1, 2, 3])) == nil)
    }
}

extension EmbeddingsTests {
    @Test func a404IsAboutTheEmbeddingModelAndNeverFallsBack() async throws {
        let transport = ScriptedTransport([
            .json(404, #"{"error":{"code":404,"message":"models/e is not found","status":"NOT_FOUND"}}"#)
        ])
        await #expect(throws: GeminiError.self) {
            _ = try await Self.client(transport).embedContent("a", model: .custom("e"))
        }
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].url.path == "/v1beta/models/e:embedContent")
    }

    @Test func aGivenRetryPolicyWinsOverTheConfiguredOne() async throws {
        let transport = ScriptedTransport([
            .json(503, #"{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}"#),
            .json(200, Self.vectors(1)),
        ])
        var policy = GeminiRetryPolicy.default
        policy.attempts = 1
        await #expect(throws: GeminiError.self) {
            _ = try await Self.client(transport).batchEmbedContents(
                ["a"], model: .custom("e"), retryPolicy: policy)
        }
        #expect(transport.requests.count == 1)
    }
}
