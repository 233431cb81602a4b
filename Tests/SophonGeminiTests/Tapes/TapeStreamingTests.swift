import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Streams under recording: a caller that stops reading, and a stream that ends after a later
/// request started.
@Suite struct TapeStreamingTests {
    typealias Support = TapeTestSupport

    static let sse = ["content-type": "text/event-stream"]

    /// Waits (up to 10 s, to catch a hang) until `condition` holds.
    static func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try condition()
    }

    @Test func aCallerThatStopsReadingRecordsACancelledStream() async throws {
        let url = try Support.tapeURL()
        let (source, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let ends = TapeLog<String>()
        feed.onTermination = { termination in ends.append("\(termination)") }
        feed.yield(Data("data: {\"n\":1}\r\n\r\n".utf8))
        let recorder = try GeminiTapeRecorder(
            wrapping: ScriptedTransport([.source(200, Self.sse, source)]), tapeURL: url)
        let response = try await recorder.send(
            Support.request("{}", url: Support.streamURL, streaming: true))
        guard case .stream(let stream) = response.body else {
            Issue.record("a streamed request stays streamed")
            return
        }
        let received = TapeLog<String>()
        let reader = Task {
            for try await chunk in stream { received.append(Support.text(chunk)) }
        }
        #expect(try await Self.eventually { received.recorded.count == 1 })
        reader.cancel()
        #expect(try await Self.eventually { try Support.lines(url).count == 2 })
        #expect(
            try Support.lines(url).last?.hasSuffix(
                #""response":{"status":200,"headers":{"content-type":"text/event-stream"},"events":[{"n":1}],"error":"cancelled"}}"#
            ) == true)
        #expect(try await Self.eventually { ends.recorded == ["cancelled"] })
        #expect(received.recorded == ["data: {\"n\":1}\r\n\r\n"])
    }

    @Test func linesFollowTheOrderRequestsWereSent() async throws {
        let url = try Support.tapeURL()
        let (source, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let inner = ScriptedTransport([.source(200, Self.sse, source), .body(200, [:], #"{"second":2}"#)])
        let recorder = try GeminiTapeRecorder(wrapping: inner, tapeURL: url)
        let first = try await recorder.send(
            Support.request(#"{"n":1}"#, url: Support.streamURL, streaming: true))
        _ = try await recorder.send(Support.request(#"{"n":2}"#))
        #expect(try Support.lines(url) == [#"{"sophonTape":1}"#])
        feed.yield(Data("data: {\"first\":1}\r\n\r\n".utf8))
        feed.finish()
        #expect(try await Support.chunks(first) == ["data: {\"first\":1}\r\n\r\n"])
        let bodies = try Support.lines(url).dropFirst().map { line in
            try JSONValue(parsing: line)["request"]?["body"]?.compactText
        }
        #expect(bodies == [#"{"n":1}"#, #"{"n":2}"#])
    }
}
