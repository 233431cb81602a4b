import Foundation
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonGemini

/// 404 for a retired model over HTTP: the fallback call, the stored selection, attempts.
@Suite(.childSlots) struct ModelFallbackIntegrationTests {
    /// The error for a 404 on `model`, with the fake server's words.
    static func retired(_ model: String) -> GeminiError {
        .modelRetired(
            modelID: model,
            server: GeminiServerStatus(
                status: 404, apiStatus: "NOT_FOUND",
                message: "models/\(model) is not found for API version v1beta, or is not supported for "
                    + "generateContent. Call ModelService.ListModels to see the list of available models and "
                    + "their supported methods."))
    }

    static let ok = #"{"kind": "generate", "text": "ok"}"#
    static let notFound = #"{"fault": "not_found"}"#

    func run(
        _ replies: [String], policy: GeminiRetryPolicy, stored: String?
    ) async throws -> (Result<GeminiResult<String>, GeminiError>, [String], [Duration], String?) {
        let server = try await FakeGeminiServer(replies: replies)
        let recorder = SleepRecorder()
        let store = InMemoryGeminiModelStore(selection: stored)
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: recorder, store: store, baseURL: server.baseURL)
        )
        let outcome: Result<GeminiResult<String>, GeminiError>
        do {
            outcome = .success(try await client.generateText(label: "fallback", contents: [.user("hi")]))
        } catch let error as GeminiError {
            outcome = .failure(error)
        }
        return (outcome, try await server.paths(), recorder.recorded, store.loadSelection())
    }

    @Test func defaultPolicyRetriesOnTheFallbackAndResetsTheStoredSelection() async throws {
        let (outcome, paths, waits, stored) = try await run(
            [Self.notFound, Self.ok], policy: .default, stored: "gemini-3.8-flash")
        let result = try outcome.get()
        #expect(result.value == "ok")
        #expect(result.modelID == "gemini-3.5-flash-lite")
        #expect(result.usedFallback)
        #expect(result.retryCount == 0)
        #expect(
            paths == [
                "/v1beta/models/gemini-3.8-flash:generateContent",
                "/v1beta/models/gemini-3.5-flash-lite:generateContent",
            ])
        #expect(waits == [])
        #expect(stored == "gemini-3.5-flash-lite")
    }

    @Test func minimalPolicyFailsButStillResetsTheStoredSelection() async throws {
        let (outcome, paths, waits, stored) = try await run(
            [Self.notFound, Self.ok], policy: .minimal, stored: "gemini-3.8-flash")
        #expect(throws: Self.retired("gemini-3.8-flash")) { try outcome.get() }
        #expect(paths == ["/v1beta/models/gemini-3.8-flash:generateContent"])
        #expect(waits == [])
        #expect(stored == "gemini-3.5-flash-lite")
    }

    @Test func aSelectionOtherThanTheRetiredModelIsKept() async throws {
        let server = try await FakeGeminiServer(replies: [Self.notFound, Self.ok])
        let store = InMemoryGeminiModelStore(selection: "gemini-3.6-flash")
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), store: store, baseURL: server.baseURL))
        let result = try await client.generateText(label: "t", contents: [.user("hi")], model: .gemini25Pro)
        #expect(result.modelID == "gemini-3.5-flash-lite")
        #expect(store.loadSelection() == "gemini-3.6-flash")
        #expect(try await server.paths().first == "/v1beta/models/gemini-2.5-pro:generateContent")
    }

    @Test func theFallbackCallDoesNotCountAgainstAttempts() async throws {
        let overloaded = #"{"fault": "overloaded"}"#
        let (outcome, paths, waits, _) = try await run(
            [Self.notFound, overloaded, overloaded, Self.ok], policy: .default, stored: nil)
        let result = try outcome.get()
        #expect(result.value == "ok")
        #expect(result.retryCount == 2)
        #expect(paths.count == 4)
        #expect(waits == [.milliseconds(880), .milliseconds(1760)])
    }

    @Test func aSecond404OnTheFallbackFails() async throws {
        let (outcome, paths, _, stored) = try await run(
            [Self.notFound, Self.notFound, Self.ok], policy: .default, stored: "gemini-3.8-flash")
        #expect(throws: Self.retired("gemini-3.5-flash-lite")) { try outcome.get() }
        #expect(paths.count == 2)
        #expect(stored == "gemini-3.5-flash-lite")
    }

    @Test(arguments: [(GeminiRetryPolicy.default, [false, true]), (.minimal, [false, false])])
    func transportFailureSetsTheDownscaleFlag(policy: GeminiRetryPolicy, flags: [Bool]) async throws {
        let server = try await FakeGeminiServer(replies: [#"{"fault": "reset"}"#, Self.ok])
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: SleepRecorder(), baseURL: server.baseURL))
        let variants = Mutex<[GeminiRequestVariant]>([])
        struct Reply: Decodable, Sendable { let ok: Bool }
        _ = try? await client.send(Reply.self, label: "media") { variant in
            variants.withLock { $0.append(variant) }
            return GenerateContentRequest(contents: [.user("describe")])
        }
        #expect(variants.withLock { $0.map(\.compressMedia) } == flags)
        #expect(variants.withLock { $0.map(\.attempt) } == [1, 2])
    }
}
