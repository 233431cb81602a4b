import Foundation
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonGemini

/// Observer events, the whole-call timeout, blocked streams and concurrent use.
@Suite(.childSlots) struct ClientBehaviourTests {
    static let okBody = #"{"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}"#

    @Test func observerSeesRequestsResponsesAndRetries() async throws {
        let events = Mutex<[GeminiClientEvent]>([])
        let transport = ScriptedTransport([
            .json(
                503,
                #"{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}"#),
            .json(200, Self.okBody),
        ])
        var configuration = GeminiClientConfiguration.testing(recorder: SleepRecorder())
        configuration.observer = { event in events.withLock { $0.append(event) } }
        let client = GeminiAPIClient(configuration: configuration, transport: transport)
        let result = try await client.generateText(label: "ask", contents: [.user("hi")])
        #expect(result.retryCount == 1)
        let seen = events.withLock { $0 }.map { event -> String in
            switch event {
            case .requestSent(let label, let method, let path, let attempt):
                "\(label) \(method) \(path) #\(attempt)"
            case .responseReceived(_, let status, let text, _): "\(status) \(text)"
            case .retrying(_, let retry, let of, let wait, let reason):
                "retry \(retry)/\(of) \(wait) \(reason)"
            case .fallback(_, let from, let to): "fallback \(from) -> \(to)"
            case .toolRound(_, let round, let calls, _): "round \(round) \(calls.count)"
            }
        }
        #expect(
            seen == [
                "ask POST /v1beta/models/gemini-3.8-flash:generateContent #1", "503 Service Unavailable",
                "retry 1/2 0.88 seconds HTTP 503 UNAVAILABLE: The model is overloaded.",
                "ask POST /v1beta/models/gemini-3.8-flash:generateContent #2", "200 OK",
            ])
    }

    @Test func theWholeCallTimeoutEndsAStalledCall() async throws {
        let server = try await FakeGeminiServer(replies: [#"{"fault": "stall", "seconds": 15}"#])
        var configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), baseURL: server.baseURL)
        configuration.callTimeout = .seconds(1)
        let client = GeminiAPIClient(configuration: configuration)
        await #expect(throws: GeminiError.transport(.timedOut, detail: "The call exceeded its limit of 1 s."))
        {
            _ = try await client.generateText(label: "t", contents: [.user("hi")])
        }
    }

    func stream(_ events: [String]) async throws -> ([String], GeminiError?, Int) {
        let transport = ScriptedTransport([
            .stream(events.map { "data: \($0)\r\n\r\n" }), .stream(["data: \(Self.okBody)\r\n\r\n"]),
        ])
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder()), transport: transport)
        var texts: [String] = []
        do {
            for try await chunk in client.streamGenerateContent(
                label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
            {
                texts.append(chunk.text)
            }
            return (texts, nil, transport.requests.count)
        } catch let error as GeminiError {
            return (texts, error, transport.requests.count)
        }
    }

    @Test func aBlockedPromptInAStreamFails() async throws {
        let (texts, error, requests) = try await stream([
            #"{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}, "usageMetadata": {"promptTokenCount": 3}}"#
        ])
        #expect(texts == [])
        #expect(error == .promptBlocked(reason: .prohibitedContent, message: nil))
        #expect(requests == 1)
    }

    @Test func aSafetyStopFailsAfterItsText() async throws {
        let (texts, error, requests) = try await stream([
            #"{"candidates": [{"content": {"parts": [{"text": "Some "}], "role": "model"}}]}"#,
            #"{"candidates": [{"content": {"parts": [{"text": "text"}], "role": "model"}, "finishReason": "SAFETY"}]}"#,
        ])
        #expect(texts == ["Some ", "text"])
        #expect(error == .contentBlocked(reason: .safety, partialText: "Some text"))
        #expect(requests == 1)
    }

    @Test func anErrorEventBeforeAnyChunkIsRetried() async throws {
        let (texts, error, requests) = try await stream([
            #"{"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}"#
        ])
        #expect(error == nil)
        #expect(requests == 2)
        #expect(texts == ["ok"])
    }

    @Test func manyConcurrentCallsOverHTTP() async throws {
        let server = try await FakeGeminiServer()
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<32 {
                group.addTask {
                    try await client.generateText(label: "c\(index)", contents: [.user("hi")]).value
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts == Array(repeating: "Hello from the fake Gemini server.", count: 32))
        #expect(try await server.paths().count == 32)
    }
}
