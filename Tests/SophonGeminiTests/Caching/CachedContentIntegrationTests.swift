import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonGemini

/// Context caches in the library over real HTTP against scripts/fake_gemini.py, whose clock
/// the test moves: create, get, list, extend, delete, expiry, and a generate call from a cache.
@Suite(.childSlots) struct CachedContentIntegrationTests {
    static func client(_ server: FakeGeminiServer) -> GeminiAPIClient {
        GeminiAPIClient(configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
    }

    @Test func createGetListExtendAndDelete() async throws {
        let server = try await FakeGeminiServer()
        let client = Self.client(server)
        let made = try await client.createCachedContent(
            GeminiCacheRequest(
                contents: [Content(role: "user", parts: [.text("alpha beta gamma delta")])],
                systemInstruction: Content(role: nil, parts: [.text("Be brief.")]), displayName: "manual",
                ttl: .seconds(600)))
        let name = try #require(made.name)
        #expect(name.hasPrefix("cachedContents/"))
        #expect(made.model == "models/gemini-3.8-flash")
        #expect(made.tokenCount == 6)
        #expect(made.expireTime == "2026-12-01T00:10:00.000000Z")
        #expect(
            try await server.requests().first?.bodyText
                == #"{"model":"models/gemini-3.8-flash","displayName":"manual","contents":[{"role":"user","parts":[{"text":"alpha beta gamma delta"}]}],"systemInstruction":{"parts":[{"text":"Be brief."}]},"ttl":"600s"}"#
        )
        #expect(try await client.getCachedContent(name).displayName == "manual")
        #expect(try await client.listAllCachedContents().compactMap(\.name) == [name])
        let extended = try await client.extendCachedContent(name, ttl: .seconds(7200))
        #expect(extended.expireTime == "2026-12-01T02:00:00.000000Z")
        try await client.deleteCachedContent(name)
        await #expect(
            throws: GeminiError.http(
                status: 403, apiStatus: "PERMISSION_DENIED",
                message: "CachedContent not found (or permission denied)",
                details: [])
        ) { _ = try await client.getCachedContent(name) }
    }

    @Test func aCacheExpiresOnTheServersClock() async throws {
        let server = try await FakeGeminiServer()
        let client = Self.client(server)
        let made = try await client.createCachedContent(
            GeminiCacheRequest(contents: [Content(role: "user", parts: [.text("alpha")])], ttl: .seconds(60)))
        _ = try await server.control("POST", "/_sophon/clock", body: #"{"advance": 59}"#)
        #expect(try await client.listAllCachedContents().count == 1)
        _ = try await server.control("POST", "/_sophon/clock", body: #"{"advance": 2}"#)
        #expect(try await client.listAllCachedContents().isEmpty)
        await #expect(throws: GeminiError.self) { _ = try await client.getCachedContent(made.name ?? "") }
    }

    @Test func aGenerateCallFromACacheCarriesNoSystemOrToolsAndCountsCachedTokens() async throws {
        let server = try await FakeGeminiServer()
        let client = Self.client(server)
        let made = try await client.createCachedContent(
            GeminiCacheRequest(contents: [Content(role: "user", parts: [.text("one two three four five")])]))
        let request = GenerateContentRequest(
            contents: [Content(role: "user", parts: [.text("question")])],
            systemInstruction: Content(role: nil, parts: [.text("ignored")]), tools: .array([]),
            toolConfig: .object([])
        ).usingCache(made.name)
        #expect(request.systemInstruction == nil && request.tools == nil && request.toolConfig == nil)
        let result = try await client.generateText(label: "t", request: request)
        #expect(result.usage?.cachedContentTokenCount == 5)
        #expect(result.usage?.promptTokenCount == 9)
        #expect(try await server.requests().last?.body["cachedContent"] == .string(made.name ?? ""))
    }

    @Test func tooSmallAContentIsTheServersWords() async throws {
        let server = try await FakeGeminiServer()
        _ = try await server.control("POST", "/_sophon/caches", body: #"{"minTokens": 4096}"#)
        await #expect(throws: GeminiError.self) {
            _ = try await Self.client(server).createCachedContent(
                GeminiCacheRequest(contents: [Content(role: "user", parts: [.text("short")])]))
        }
        #expect(try await server.requests().count == 1)  // a 400 is not retried
    }

    /// docs/library.md, "Context caches, service tiers, Vertex AI".
    @Test func theGuidesSample() async throws {
        let server = try await FakeGeminiServer()
        let client = Self.client(server)
        let manual = "one two three four five six"
        // A cache of a long context, then calls that answer from it (docs/commands.md, "cache").
        let cache = try await client.createCachedContent(
            GeminiCacheRequest(
                contents: [Content(role: "user", parts: [.text(manual)])],
                systemInstruction: Content(role: nil, parts: [.text("Answer from the manual.")]),
                displayName: "manual", ttl: .seconds(3600)))
        var request = GenerateContentRequest(contents: [Content(role: "user", parts: [.text("What is X?")])])
        request = request.usingCache(cache.name)  // sets cachedContent; drops system, tools, toolConfig
        request.serviceTier = "flex"  // at the request's root; lowercase
        let answer = try await client.generateText(label: "ask", request: request)
        let cached = answer.usage?.cachedContentTokenCount ?? 0  // the tokens served from the cache
        let tier = answer.usage?.serviceTier  // the tier that served the call
        #expect(cached == 10)
        #expect(tier == "flex")
        _ = try await client.extendCachedContent(cache.name ?? "", ttl: .seconds(7200))
        try await client.deleteCachedContent(cache.name ?? "")
        #expect(try await client.listAllCachedContents().isEmpty)
    }
}
