import Foundation
import SophonCore
import Synchronization
import Testing

@testable import SophonGemini

/// Collects values handed to a callback (waits, warnings). Test support only.
final class TapeLog<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    var recorded: [Value] { values.withLock { $0 } }

    func append(_ value: Value) { values.withLock { $0.append(value) } }
}

/// Test helpers shared by the tape suites.
enum TapeTestSupport {
    static let key = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5cD3f"
    static let generateURL = URL(string: "http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:generateContent")!
    static let streamURL = URL(
        string: "http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")!

    /// A fresh tape path in a new temporary folder.
    static func tapeURL() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-tape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("run.tape")
    }

    static func request(
        _ body: String?, url: URL = generateURL, method: String = "POST", streaming: Bool = false
    )
        -> GeminiHTTPRequest
    {
        GeminiHTTPRequest(
            method: method, url: url, headers: ["x-goog-api-key": key, "content-type": "application/json"],
            body: body.map { Data($0.utf8) }, timeout: .seconds(5), streaming: streaming)
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The chunks of a streamed body, in order.
    static func chunks(_ response: GeminiHTTPResponse) async throws -> [String] {
        guard case .stream(let stream) = response.body else { return ["<not a stream>"] }
        var chunks: [String] = []
        for try await chunk in stream { chunks.append(text(chunk)) }
        return chunks
    }

    /// The chunks received before a streamed body failed, and its error.
    static func chunksAndError(_ response: GeminiHTTPResponse) async -> ([String], (any Error)?) {
        guard case .stream(let stream) = response.body else { return (["<not a stream>"], nil) }
        var chunks: [String] = []
        do {
            for try await chunk in stream { chunks.append(text(chunk)) }
            return (chunks, nil)
        } catch {
            return (chunks, error)
        }
    }
}

/// Recording through a scripted transport, then replaying the tape: the exact lines and the
/// responses given back.
@Suite struct TapeRecordReplayTests {
    typealias Support = TapeTestSupport

    static let prompt = #"{"contents":[{"role":"user","parts":[{"text":"Name a book"}]}]}"#
    static let answer =
        #"{"candidates": [{"content": {"parts": [{"text": "Dune"}], "role": "model"}, "finishReason": "STOP"}]}"#

    @Test func recordsAJSONExchangeAndReplaysItPrettyPrinted() async throws {
        let url = try Support.tapeURL()
        let headers = [
            "Content-Type": "application/json; charset=UTF-8", "Set-Cookie": "NID=secret",
            "Server-Timing": "dur=612",
        ]
        let inner = ScriptedTransport([.body(200, headers, Self.answer)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        let live = try await recorder.send(Support.request(Self.prompt))
        #expect(try Support.text(await live.collectBody()) == Self.answer)
        #expect(live.headers["set-cookie"] == "NID=secret")
        #expect(
            try Support.lines(url) == [
                #"{"sophonTape":1}"#,
                #"{"request":{"method":"POST","path":"/v1beta/models/gemini-2.5-flash:generateContent","body":{"contents":[{"role":"user","parts":[{"text":"Name a book"}]}]}},"response":{"status":200,"headers":{"content-type":"application/json; charset=UTF-8"},"body":{"candidates":[{"content":{"parts":[{"text":"Dune"}],"role":"model"},"finishReason":"STOP"}]}}}"#,
            ])

        let replayer = try GeminiTapeReplayer(contentsOf: url)
        let replayed = try await replayer.send(Support.request(Self.prompt))
        #expect(replayed.status == 200)
        #expect(replayed.headers == ["content-type": "application/json; charset=UTF-8"])
        guard case .data(let data) = replayed.body else {
            Issue.record("a unary request replays as a whole body")
            return
        }
        #expect(
            Support.text(data) == """
                {
                  "candidates": [
                    {
                      "content": {
                        "parts": [
                          {
                            "text": "Dune"
                          }
                        ],
                        "role": "model"
                      },
                      "finishReason": "STOP"
                    }
                  ]
                }

                """)
        #expect(try JSONValue(parsing: Support.text(data)) == JSONValue(parsing: Self.answer))
        #expect(replayer.answeredCount == 1)
        #expect(replayer.remainingCount == 0)
    }

    @Test func recordsAGetWithANullBodyAndStripsTheBasePrefix() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([.body(200, [:], #"{"models": []}"#)])
        let base = URL(string: "https://proxy.example/gemini/v1beta/")!
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url, baseURL: base)
        let listURL = URL(string: "https://proxy.example/gemini/v1beta/models?pageSize=5")!
        _ = try await recorder.send(Support.request(nil, url: listURL, method: "GET"))
        #expect(
            try Support.lines(url).last
                == #"{"request":{"method":"GET","path":"/v1beta/models?pageSize=5","body":null},"response":{"status":200,"headers":{},"body":{"models":[]}}}"#
        )
        let replayer = try GeminiTapeReplayer(contentsOf: url, baseURL: URL(string: "http://127.0.0.1:8080")!)
        let local = URL(string: "http://127.0.0.1:8080/v1beta/models?pageSize=5")!
        let replayed = try await replayer.send(Support.request(nil, url: local, method: "GET"))
        #expect(try Support.text(await replayed.collectBody()) == "{\n  \"models\": []\n}\n")
    }

    @Test func recordsAnHTMLBodyAsAString() async throws {
        let url = try Support.tapeURL()
        let page = "<html><body><h1>502 Bad Gateway</h1></body></html>\n"
        let inner = ScriptedTransport([.body(502, ["content-type": "text/html"], page)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        _ = try await recorder.send(Support.request(Self.prompt))
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""response":{"status":502,"headers":{"content-type":"text/html"},"body":"<html><body><h1>502 Bad Gateway</h1></body></html>\n"}}"#
            ) == true)
        let replayed = try await GeminiTapeReplayer(contentsOf: url).send(Support.request(Self.prompt))
        #expect(replayed.status == 502)
        #expect(try Support.text(await replayed.collectBody()) == page)
    }

    @Test func transportFailuresRoundTrip() async throws {
        let url = try Support.tapeURL()
        let failure = GeminiError.transport(.timedOut, detail: "The request timed out.")
        let recorder = try GeminiTapeRecorder(wrapping: ScriptedTransport([.failure(failure)]), tapeURL: url)
        await #expect(throws: failure) { try await recorder.send(Support.request(Self.prompt)) }
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""response":{"error":"transport","failure":"timedOut","detail":"The request timed out."}}"#)
                == true)
        let replayer = try GeminiTapeReplayer(contentsOf: url)
        await #expect(throws: failure) { try await replayer.send(Support.request(Self.prompt)) }
        #expect(replayer.answeredCount == 1)
    }

    @Test func sseIsRecordedAsEventsAndReplayedOneEventPerChunk() async throws {
        let url = try Support.tapeURL()
        let pieces = [#"data: {"a": 1}"# + "\r\n\r\ndata: {\"b\"", ":2}\r\n\r\n", "data: [DONE]\r\n\r\n"]
        let inner = ScriptedTransport([.chunks(200, ["content-type": "text/event-stream"], pieces)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        let live = try await recorder.send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        #expect(try await Support.chunks(live) == pieces)
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""response":{"status":200,"headers":{"content-type":"text/event-stream"},"events":[{"a":1},{"b":2},"[DONE]"]}}"#
            ) == true)
        let replayed = try await GeminiTapeReplayer(contentsOf: url).send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        #expect(replayed.headers["content-type"] == "text/event-stream")
        #expect(
            try await Support.chunks(replayed) == [
                "data: {\"a\":1}\r\n\r\n", "data: {\"b\":2}\r\n\r\n", "data: [DONE]\r\n\r\n",
            ])
    }

    @Test func aRawErrorAfterEventsIsKeptAsTheTrailer() async throws {
        let url = try Support.tapeURL()
        let rawError = "{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"overloaded\"\n  }\n}\n"
        let pieces = [#"data: {"x":"Hel"}"# + "\r\n\r\n", rawError]
        let inner = ScriptedTransport([.chunks(200, ["content-type": "text/event-stream"], pieces)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        let live = try await recorder.send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        #expect(try await Support.chunks(live) == pieces)
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""events":[{"x":"Hel"}],"trailer":{"error":{"code":503,"message":"overloaded"}}}}"#) == true)
        let replayed = try await GeminiTapeReplayer(contentsOf: url).send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        #expect(try await Support.chunks(replayed) == ["data: {\"x\":\"Hel\"}\r\n\r\n", rawError])
    }

    @Test func aCutStreamRecordsWhatWasSeenAndHowItEnded() async throws {
        let url = try Support.tapeURL()
        let reset = GeminiError.transport(.connectionLost, detail: "Connection reset by peer")
        let pieces = [#"data: {"x":1}"# + "\r\n\r\n", #"data: {"x":"#]
        let inner = ScriptedTransport([
            .chunks(200, ["content-type": "text/event-stream"], pieces, failure: reset)
        ])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        let live = try await recorder.send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        let (liveChunks, liveError) = await Support.chunksAndError(live)
        #expect(liveChunks == pieces)
        #expect(liveError as? GeminiError == reset)
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""events":[{"x":1}],"unterminated":"{\"x\":","error":"transport","failure":"connectionLost","detail":"Connection reset by peer"}}"#
            ) == true)
        let replayed = try await GeminiTapeReplayer(contentsOf: url).send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        let (chunks, error) = await Support.chunksAndError(replayed)
        #expect(chunks == ["data: {\"x\":1}\r\n\r\n", "data: {\"x\":"])
        #expect(error as? GeminiError == reset)
    }

    @Test func theKeyNeverReachesTheTape() async throws {
        let url = try Support.tapeURL()
        let echo = """
            {"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT",
              "details": [{"@type": "type.googleapis.com/google.rpc.DebugInfo", "detail": "key \(Support.key) rejected"}]}}
            """
        let inner = ScriptedTransport([
            .body(400, ["content-type": "application/json", "x-echo": Support.key], echo),
            .chunks(200, ["content-type": "text/event-stream"], ["data: {\"k\":\"\(Support.key)\"}\r\n\r\n"]),
            .failure(.transport(.other, detail: "proxy said \(Support.key)")),
        ])
        let recorder = try GeminiTapeRecorder(
            wrapping: inner, tapeURL: url, secrets: ["hunter2-and-more-secret"])
        _ = try await recorder.send(Support.request(#"{"note":"hunter2-and-more-secret"}"#))
        _ = try await Support.chunks(
            recorder.send(Support.request(Self.prompt, url: Support.streamURL, streaming: true)))
        _ = try? await recorder.send(Support.request(Self.prompt))
        #expect(
            inner.requests.map { $0.headers["x-goog-api-key"] } == [Support.key, Support.key, Support.key])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains(Support.key))
        #expect(!text.contains("hunter2-and-more-secret"))
        #expect(!text.contains("x-goog-api-key"))
        #expect(!text.contains("x-echo"))
        #expect(text.contains(#""detail":"key ••••cD3f rejected""#))
        #expect(text.contains(#""events":[{"k":"••••cD3f"}]"#))
        #expect(text.contains(#""detail":"proxy said ••••cD3f""#))
        #expect(text.contains(#""body":{"note":"••••cret"}"#))
        #expect(try GeminiTape(contentsOf: url).exchanges.count == 3)
    }

    @Test func theTapeIsWrittenAsTheRunGoes() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([
            .body(200, [:], Self.answer),
            .chunks(
                200, ["content-type": "text/event-stream"],
                ["data: {\"n\":1}\r\n\r\n", "data: {\"n\":2}\r\n\r\n"]),
        ])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        #expect(try Support.lines(url) == [#"{"sophonTape":1}"#])
        _ = try await recorder.send(Support.request(Self.prompt))
        #expect(try Support.lines(url).count == 2)
        let live = try await recorder.send(
            Support.request(Self.prompt, url: Support.streamURL, streaming: true))
        guard case .stream(let stream) = live.body else {
            Issue.record("a streamed request stays streamed")
            return
        }
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next().map(Support.text) == "data: {\"n\":1}\r\n\r\n")
        #expect(try await iterator.next().map(Support.text) == "data: {\"n\":2}\r\n\r\n")
        #expect(try await iterator.next() == nil)
        #expect(try Support.lines(url).count == 3)
    }

    @Test func aCutRecordingReplaysItsCompleteLines() async throws {
        let url = try Support.tapeURL()
        let inner = ScriptedTransport([.body(200, [:], Self.answer), .body(200, [:], Self.answer)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        _ = try await recorder.send(Support.request(Self.prompt))
        _ = try await recorder.send(Support.request(#"{"second":true}"#))
        let whole = try Data(contentsOf: url)
        try whole.dropLast(25).write(to: url)
        let warnings = TapeLog<String>()
        let replayer = try GeminiTapeReplayer(contentsOf: url, warning: warnings.append)
        #expect(warnings.recorded == ["line 3: the last line is incomplete (a recording cut short); ignored"])
        #expect(replayer.tape.exchanges.count == 1)
        let first = try await replayer.send(Support.request(Self.prompt))
        #expect(first.status == 200)
        await #expect(
            throws: GeminiTapeError.exhausted(
                request: 2, method: "POST", path: "/v1beta/models/gemini-2.5-flash:generateContent")
        ) {
            try await replayer.send(Support.request(#"{"second":true}"#))
        }
    }
}
