import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// A tape line that is JSON but not an exchange or a tool call is an error at its line, when
/// the tape is read and when a replayer loads it, before any request is answered: never an
/// exchange or call silently missing from the replay ("the tape has no more exchanges").
@Suite struct TapeLineShapeTests {
    static let header = #"{"sophonTape":1}"#
    static let stream =
        #""request":{"method":"POST","path":"/v1beta/models/m:streamGenerateContent?alt=sse","body":{}}"#

    static let badLines: [(line: String, reason: String)] = [
        (#"{"foo":1}"#, "request is missing"),
        ("[]", "expected an object, got array"),
        ("42", "expected an object, got number"),
        (#""exchange""#, "expected an object, got string"),
        ("null", "expected an object, got null"),
        (#"{"response":{"status":200}}"#, "request is missing"),
        (#"{"request":[],"response":{"status":200}}"#, "request: expected an object, got array"),
        (
            #"{"request":{"method":"GET","path":"/"},"response":"ok"}"#,
            "response: expected an object, got string"
        ),
        (
            #"{"request":{"method":"GET","path":7},"response":{"status":200}}"#,
            "request: path must be a string, got number"
        ),
        (
            #"{"request":{"method":"GET","path":"/"},"response":{"status":200,"headers":[]}}"#,
            "response: headers must be an object"
        ),
        // Streamed exchanges.
        (#"{\#(stream),"response":{"status":200,"events":"data: {}"}}"#, "response: events must be an array"),
        (
            #"{\#(stream),"response":{"status":200,"events":[],"body":{}}}"#,
            "response: has both body and events"
        ),
        (
            #"{\#(stream),"response":{"status":200,"events":[{}],"unterminated":3}}"#,
            "response: unterminated must be a string"
        ),
        (
            #"{\#(stream),"response":{"status":200,"trailer":{"error":{}}}}"#,
            "response: trailer and unterminated belong with events"
        ),
        (
            #"{\#(stream),"response":{"events":[{}]}}"#,
            "response: status is missing (only a failed exchange may omit it)"
        ),
        // Tool calls.
        (#"{"tool":42}"#, "tool: expected an object, got number"),
        (#"{"tool":{"args":{},"server":"p","result":3}}"#, "tool: name is missing"),
        (#"{"tool":{"name":["add"],"result":3}}"#, "tool: name must be a string, got array"),
        (#"{"tool":{"name":"add","args":[1],"result":3}}"#, "tool: args must be an object, got array"),
        (#"{"tool":{"name":"add","server":1,"result":3}}"#, "tool: server must be a string, got number"),
        (#"{"tool":{"name":"add","args":{},"server":"p"}}"#, "tool: result or error is missing"),
        (#"{"tool":{"name":"add","result":3,"error":"boom"}}"#, "tool: has both result and error"),
        (#"{"tool":{"name":"add","error":{"code":1}}}"#, "tool: error must be a string, got object"),
    ]

    @Test(arguments: badLines)
    func aLineThatIsNotAnExchangeIsAnErrorAtItsLine(line: String, reason: String) {
        let text = "\(Self.header)\n\(TapeFormatTests.exchange)\n\n\(line)\n\(TapeFormatTests.exchange)\n"
        #expect(throws: GeminiTapeError.invalidExchange(line: 4, reason: reason)) {
            try GeminiTape(parsing: text)
        }
        // The same without the final newline: JSON that is whole is no cut, whatever its shape.
        #expect(throws: GeminiTapeError.invalidExchange(line: 3, reason: reason)) {
            try GeminiTape(parsing: "\(Self.header)\n\(TapeFormatTests.exchange)\n\(line)")
        }
    }

    @Test func theErrorNamesTheLineInItsDescription() {
        let error = GeminiTapeError.invalidExchange(line: 3, reason: "tool: result or error is missing")
        #expect(error.description == "line 3: not a tape exchange: tool: result or error is missing")
    }

    /// The replay path: a replayer is loaded from the file, so a bad line fails the load, and
    /// nothing is answered from a tape that is partly unreadable.
    @Test func aReplayerRefusesATapeWithABadLine() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-bad-line-\(UUID().uuidString).tape")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("\(Self.header)\n\(TapeFormatTests.exchange)\n{\"foo\":1}\n".utf8).write(to: url)
        #expect(throws: GeminiTapeError.invalidExchange(line: 3, reason: "request is missing")) {
            try GeminiTapeReplayer(contentsOf: url)
        }
    }

    /// Every recorded tool line shape (a result, an error, a call without args or server) still
    /// loads.
    @Test func recordedToolLinesLoad() throws {
        let lines = [
            #"{"tool":{"name":"add","args":{"a":1},"server":"p","result":3}}"#,
            #"{"tool":{"name":"crash","args":{},"server":"p","error":"boom"}}"#,
            #"{"tool":{"name":"now","result":null}}"#,
        ]
        let tape = try GeminiTape(parsing: ([Self.header] + lines).joined(separator: "\n") + "\n")
        #expect(tape.toolCalls.map(\.compactText) == lines.map { String($0.dropFirst(8).dropLast()) })
    }
}
