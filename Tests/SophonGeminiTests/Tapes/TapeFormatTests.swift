import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Loading tapes: the header, line numbers in errors, tolerated cut lines, and the exchange
/// fields round-tripping through their JSON form.
@Suite struct TapeFormatTests {
    static let exchange =
        #"{"request":{"method":"POST","path":"/v1beta/models/m:generateContent","body":{"n":1}},"response":{"status":200,"body":{"ok":true}}}"#

    @Test func invalidJSONNamesItsLine() throws {
        let text = "{\"sophonTape\":1}\n\(Self.exchange)\n{\"request\": oops}\n\(Self.exchange)\n"
        #expect(
            throws: GeminiTapeError.invalidJSON(
                line: 3, column: 13, message: "expected a JSON value but found 'oops'")
        ) {
            try GeminiTape(parsing: text)
        }
        do {
            _ = try GeminiTape(parsing: text)
        } catch {
            #expect(
                error.description
                    == "line 3: invalid JSON at column 13: expected a JSON value but found 'oops'")
        }
    }

    static let loadErrors: [(text: String, error: GeminiTapeError)] = [
        ("", .missingHeader(line: 1)),
        ("\n\n", .missingHeader(line: 1)),
        ("\(exchange)\n", .missingHeader(line: 1)),
        ("# a script, not a tape\n", .missingHeader(line: 1)),
        ("{\"sophonTape\":2}\n", .unsupportedVersion("2", line: 1)),
        ("\n{\"sophonTape\":\"one\"}\n", .unsupportedVersion("\"one\"", line: 2)),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"path\":\"/v1beta/models\"},\"response\":{\"status\":200}}\n",
            .invalidExchange(line: 2, reason: "request: method is missing")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/v1beta/models\"}}\n",
            .invalidExchange(line: 2, reason: "response is missing")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/v1beta/models\"},\"response\":{}}\n",
            .invalidExchange(
                line: 2, reason: "response: status is missing (only a failed exchange may omit it)")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/\"},\"response\":{\"status\":\"200\"}}\n",
            .invalidExchange(
                line: 2, reason: "response: status must be an HTTP status code (100...999), got \"200\"")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/\"},\"response\":{\"status\":200,\"events\":{}}}\n",
            .invalidExchange(line: 2, reason: "response: events must be an array")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/\"},\"response\":{\"error\":\"boom\"}}\n",
            .invalidExchange(line: 2, reason: "response: error must be \"transport\" or \"cancelled\"")
        ),
        (
            "{\"sophonTape\":1}\n{\"request\":{\"method\":\"GET\",\"path\":\"/\"},\"response\":{\"error\":\"transport\",\"failure\":\"gone\"}}\n",
            .invalidExchange(
                line: 2,
                reason:
                    "response: failure \"gone\" is not one of timedOut, connectionLost, cannotConnect, badResponse, other"
            )
        ),
        ("{\"sophonTape\":1}\n[1, 2]\n", .invalidExchange(line: 2, reason: "expected an object, got array")),
        (
            "{\"sophonTape\":1}\n{\"request\": 1\n",
            .invalidJSON(
                line: 2, column: 14, message: "unexpected end of input; expected the rest of the value")
        ),
    ]

    @Test(arguments: loadErrors)
    func badTapesFailWithTheirLine(text: String, error: GeminiTapeError) {
        #expect(throws: error) { try GeminiTape(parsing: text) }
    }

    @Test func handWrittenTapesMayUseCRLFBlankLinesAndNoFinalNewline() throws {
        let text = "\r\n{\"sophonTape\": 1}\r\n\r\n\(Self.exchange)\r\n  \n\(Self.exchange)"
        let tape = try GeminiTape(parsing: text)
        #expect(tape.exchanges.map(\.line) == [4, 6])
        #expect(tape.warnings == [])
        #expect(
            tape.exchanges.first?.request
                == GeminiTapeRequest(
                    method: "POST", path: "/v1beta/models/m:generateContent",
                    body: .object([.init("n", .integer(1))])))
    }

    @Test func aCutLastLineIsAWarningNotAnError() throws {
        let cut = String(Self.exchange.prefix(40))
        let tape = try GeminiTape(parsing: "{\"sophonTape\":1}\n\(Self.exchange)\n\(cut)")
        #expect(tape.exchanges.count == 1)
        #expect(tape.warnings == ["line 3: the last line is incomplete (a recording cut short); ignored"])
        #expect(
            throws: GeminiTapeError.invalidJSON(
                line: 3, column: 36, message: "unterminated string (no closing quote before the end of input)"
            )
        ) {
            try GeminiTape(parsing: "{\"sophonTape\":1}\n\(Self.exchange)\n\(cut)\n")
        }
    }

    /// A last line without its newline that breaks before its end was edited, not cut: an
    /// error at its place (it was dropped as a cut one, and the replay then said the tape had
    /// no more exchanges).
    @Test func anEditedLastLineWithoutItsNewlineIsAnErrorNotACut() throws {
        let edited = Self.exchange.replacingOccurrences(of: #""method":"#, with: #""method"#)
        #expect(
            throws: GeminiTapeError.invalidJSON(
                line: 2, column: 21, message: "expected ':' after the key but found 'P'")
        ) {
            try GeminiTape(parsing: "{\"sophonTape\":1}\n\(edited)")
        }
        // Cut inside a literal or a number: still the start of a JSON text.
        for cut in [
            #"{"request": tr"#, #"{"request": 1."#, #"{"request": "a\"#, #"{"request": -"#,
            #"{"request": "\u00"#, #"{"request": "\ud83d"#, #"{"request""#, "[",
        ] {
            let tape = try GeminiTape(parsing: "{\"sophonTape\":1}\n\(Self.exchange)\n\(cut)")
            #expect(tape.warnings == ["line 3: the last line is incomplete (a recording cut short); ignored"])
        }
    }

    static let responses: [GeminiTapeResponse] = [
        GeminiTapeResponse(
            status: 200, headers: ["content-type": "application/json"], payload: .body(.object([]))),
        GeminiTapeResponse(status: 502, payload: .body(.string("<html>Bad Gateway</html>"))),
        GeminiTapeResponse(status: 204),
        GeminiTapeResponse(status: nil, failure: .transport(.cannotConnect, detail: "Connection refused")),
        GeminiTapeResponse(status: nil, failure: .cancelled),
        GeminiTapeResponse(
            status: 200, headers: ["content-type": "text/event-stream", "retry-after": "3"],
            payload: .events(
                [.object([.init("a", .integer(1))]), .string("[DONE]")],
                trailer: .object([.init("error", .object([]))]), unterminated: "{\"b\""),
            failure: .transport(.connectionLost, detail: "reset")),
    ]

    @Test(arguments: responses)
    func exchangesRoundTripThroughTheirLine(response: GeminiTapeResponse) throws {
        let exchange = GeminiTapeExchange(
            request: GeminiTapeRequest(method: "POST", path: "/v1beta/models/m:countTokens", body: .null),
            response: response, line: 9)
        let line = exchange.jsonValue.compactText
        #expect(try GeminiTapeExchange(json: JSONValue(parsing: line), line: 9) == exchange)
    }

    @Test func theLineShapeOfAFullStreamResponse() {
        #expect(
            Self.responses[5].jsonValue.compactText
                == #"{"status":200,"headers":{"content-type":"text/event-stream","retry-after":"3"},"events":[{"a":1},"[DONE]"],"trailer":{"error":{}},"unterminated":"{\"b\"","error":"transport","failure":"connectionLost","detail":"reset"}"#
        )
    }

    @Test func fileErrorsNameThePath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-no-such-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("run.tape")
        #expect(throws: GeminiTapeError.unwritable(path: url.path, reason: "No such file or directory")) {
            try GeminiTapeRecorder(wrapping: ScriptedTransport([]), tapeURL: url)
        }
        do {
            _ = try GeminiTape(contentsOf: url)
            Issue.record("expected an error")
        } catch {
            guard case .unreadable(let path, _) = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(path == url.path)
        }
    }
}
