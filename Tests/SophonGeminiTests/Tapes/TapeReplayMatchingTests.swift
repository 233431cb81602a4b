import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Replay matching: requests compared in order by method, path and body as JSON values, with
/// messages that show the difference.
@Suite struct TapeReplayMatchingTests {
    typealias Support = TapeTestSupport

    static let tape = """
        {"sophonTape": 1}
        {"request": {"method": "POST", "path": "/v1beta/models/m:generateContent", "body": {"n": 1}}, "response": {"status": 200, "body": {"ok": 1}}}

        {"request": {"method": "GET", "path": "/v1beta/models", "body": null}, "response": {"status": 200, "body": {"models": []}}}
        {"request": {"method": "POST", "path": "/v1beta/models/m:generateContent", "body": {"contents": [{"role": "user", "parts": [{"text": "Name a book"}]}], "generationConfig": {"temperature": 0.5}}}, "response": {"status": 200, "body": {"ok": 3}}}

        """

    static let base = "http://127.0.0.1:9/v1beta/models"
    static let generate = URL(string: base + "/m:generateContent")!

    /// A replayer that has answered the first two requests.
    static func replayerAtThirdRequest() async throws -> GeminiTapeReplayer {
        let replayer = GeminiTapeReplayer(tape: try GeminiTape(parsing: tape))
        _ = try await replayer.send(Support.request(#"{"n":1.0}"#, url: generate))
        _ = try await replayer.send(Support.request(nil, url: URL(string: base)!, method: "GET"))
        return replayer
    }

    @Test func bodiesMatchAsJSONValues() async throws {
        let replayer = try await Self.replayerAtThirdRequest()
        let reordered =
            #"{"generationConfig":{"temperature":5e-1},"contents":[{"parts":[{"text":"Name a book"}],"role":"user"}]}"#
        let response = try await replayer.send(Support.request(reordered, url: Self.generate))
        #expect(
            try JSONValue(parsing: Support.text(await response.collectBody()))
                == .object([.init("ok", .integer(3))]))
        #expect(replayer.answeredCount == 3)
        await #expect(
            throws: GeminiTapeError.exhausted(
                request: 4, method: "POST", path: "/v1beta/models/m:generateContent")
        ) {
            try await replayer.send(Support.request(reordered, url: Self.generate))
        }
        let message = "the tape has no more exchanges (request 4: POST /v1beta/models/m:generateContent)"
        do {
            _ = try await replayer.send(Support.request(reordered, url: Self.generate))
        } catch {
            #expect("\(error)" == message)
        }
    }

    static let mismatches: [(method: String, url: String, body: String?, message: String)] = [
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a film"}]}],"generationConfig":{"temperature":0.5}}"#,
            #"request 3: body differs at $.contents[0].parts[0].text: recorded "Name a book", got "Name a film""#
        ),
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a book"}]}]}"#,
            "request 3: body differs at $.generationConfig: recorded {\"temperature\":0.5}, got (absent)"
        ),
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a book"}]}],"generationConfig":{"temperature":0.5,"top k":40}}"#,
            #"request 3: body differs at $.generationConfig["top k"]: recorded (absent), got 40"#
        ),
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a book"}]},{"role":"model","parts":[{"text":"Dune"}]}],"generationConfig":{"temperature":0.5}}"#,
            #"request 3: body differs at $.contents[1]: recorded (absent), got {"role":"model","parts":[{"text":"Dune"}]}"#
        ),
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a book"}]}],"generationConfig":{"temperature":"0.5"}}"#,
            #"request 3: body differs at $.generationConfig.temperature: recorded 0.5, got "0.5""#
        ),
        (
            "POST", base + "/m:generateContent",
            #"{"contents":[{"role":"user","parts":[{"text":"Name a book in a sentence that goes on and on and on and on and on until the end of the line"}]}],"generationConfig":{"temperature":0.5}}"#,
            #"request 3: body differs at $.contents[0].parts[0].text: recorded "Name a book", got "Name a book in a sentence that goes on and on and on and on and on until the en…"#
        ),
        (
            "POST", base + "/m:generateContent", nil,
            #"request 3: body differs at $: recorded {"contents":[{"role":"user","parts":[{"text":"Name a book"}]}],"generationConfig…, got null"#
        ),
        (
            "POST", base + "/other:generateContent", "{}",
            "request 3: path differs: recorded /v1beta/models/m:generateContent, got /v1beta/models/other:generateContent"
        ),
        ("GET", base + "/m:generateContent", nil, "request 3: method differs: recorded POST, got GET"),
    ]

    @Test(arguments: mismatches)
    func aDifferentRequestFailsWithTheDifference(
        method: String, url: String, body: String?, message: String
    ) async throws {
        let replayer = try await Self.replayerAtThirdRequest()
        let request = Support.request(body, url: URL(string: url)!, method: method)
        do {
            _ = try await replayer.send(request)
            Issue.record("expected a mismatch")
        } catch let error as GeminiTapeError {
            #expect(error.description == message)
            guard case .mismatch(let mismatch) = error else {
                Issue.record("expected .mismatch, got \(error)")
                return
            }
            #expect(mismatch.request == 3)
            #expect(mismatch.line == 5)
        }
        #expect(replayer.answeredCount == 3)
    }

    @Test func aMismatchConsumesTheExchange() async throws {
        let replayer = try await Self.replayerAtThirdRequest()
        let remaining = replayer.remainingCount
        await #expect(throws: GeminiTapeError.self) {
            try await replayer.send(Support.request("{}", url: Self.generate))
        }
        #expect(replayer.remainingCount == remaining - 1)
    }

    @Test func aRecordedCancellationReplaysAsCancellation() async throws {
        let tape = """
            {"sophonTape":1}
            {"request":{"method":"POST","path":"/v1beta/models/m:generateContent","body":null},"response":{"error":"cancelled"}}
            """
        let replayer = GeminiTapeReplayer(tape: try GeminiTape(parsing: tape))
        await #expect(throws: CancellationError.self) {
            try await replayer.send(Support.request(nil, url: Self.generate))
        }
    }

    @Test func handWrittenResponsesGetTheUsualContentTypes() async throws {
        let tape = """
            {"sophonTape":1}
            {"request":{"method":"POST","path":"/v1beta/models/m:generateContent","body":null},"response":{"status":200,"body":{"a":1}}}
            {"request":{"method":"POST","path":"/v1beta/models/m:streamGenerateContent?alt=sse","body":null},"response":{"status":200,"events":[{"a":1}]}}
            {"request":{"method":"POST","path":"/v1beta/models/m:generateContent","body":null},"response":{"status":503,"headers":{"Retry-After":"2"}}}
            """
        let replayer = GeminiTapeReplayer(tape: try GeminiTape(parsing: tape))
        let first = try await replayer.send(Support.request(nil, url: Self.generate))
        #expect(first.headers == ["content-type": "application/json; charset=UTF-8"])
        let stream = URL(string: Self.base + "/m:streamGenerateContent?alt=sse")!
        let second = try await replayer.send(Support.request(nil, url: stream, streaming: true))
        #expect(second.headers == ["content-type": "text/event-stream"])
        #expect(try await Support.chunks(second) == ["data: {\"a\":1}\r\n\r\n"])
        let third = try await replayer.send(Support.request(nil, url: Self.generate))
        #expect(third.status == 503)
        #expect(third.headers == ["retry-after": "2"])
        #expect(try await third.collectBody().isEmpty)
    }
}
