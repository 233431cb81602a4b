import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Inputs found by the `tape` fuzz target (docs/reliability.md, Findings): a recorded request
/// body with a repeated key did not match itself, because the comparison took the first
/// member of that name on one side for every member on the other.
@Suite struct FuzzRegressionTapeTests {
    /// The input the fuzzer saved (`crash-198c43fe…`, 2,281 bytes, not all UTF-8), base64.
    static let fuzzInput = [
        "ICAgICAgICB7InNvcGhvblRhcGUiOiAxfQogICAgICAgIHsicmVxdWVzdCI6IHsibWV0aG9kIjogIlBPU1QiLCAicGF0aCI6",
        "ICJlbnQiLCAiYm9keSI6IHsibiAiOjFlNDAwMX19LCAicmVzcG9uc2UiOiB7InN0YXR1cyI6IDIwMCwgImJvZHkiOiB7Im9r",
        "6urq6urqNjAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA1MDE3Nzk4ODjxkaWfizg4ODg4ODg4ITg4/////////////////zgw",
        "MDAwMDAwMDAwMDAwMDAwMDAwMDAwNTAxNzc5OTY3ODU3NTM5Mjk5Murq6urq6urq6urq6urq6urqIjogMX19fQoKICAgICAg",
        "ICB7InJlcXVlc3QiOiB7Im1ldGhvZCI6ICJQT1NUIiwgInBhdGgiOiAiZW50IiwgImJvZHkiOiB7IuKAnW4g////////////",
        "////////////////////////////////XFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcciI6InRyYW5zcG9y",
        "dCIsIjxhaWx1cmVcXFxcXFxcXFxcXFxcXFxcXFxcciI6InRyYW5zcG9ydCIsIjxhaWx1cmVcXFxcXFxcXFxcXFxcciI6InRy",
        "YW5zcG9ydCIsIjxhaWx1cmVcXFxcXFxcXFxcXFxcciI6InRyYW5zcG9ydCIsIjxhaWyLjZqmXFxcXFxcXFxcXFxcXFxcXFxc",
        "XFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbHVyZVxcXFxcXFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbFxc",
        "XFxcXFxcXFxcXHIiOiJ0cmFuc3BvcnQiLCI8YWlsi42aplxcXFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbHVyZVxc",
        "XFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbIuNmqZcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcciI6InRy",
        "YW5zcG9ydCIsIjxhaWx1cmVcXFxcXFxcXFxcXFxcciI6InRyYW5zcG+OgyIsIjxhaWx1cmVcXFxcXFxcXFxcXFxcXFxcXFxc",
        "XFxcXFxcXFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbHVyZVxcXFxcXFxcXFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0",
        "IiwiPGFpbHVyZVxcXFxcXFxcXFxcXFxyIjoidHJhbnNwb3J0IiwiPGFpbHVyZVxcXFxcXFxc////////////IjoyfX0sICJy",
        "ZXNwb25zZSI6IHsic3RhdHVzIjogMjAwLCAiYm9keSI6IHsib0FJemFTeUZ1enpLZXkwMTIzNDU2Nzg5YWJjZGVmZ2hpams5",
        "OTY3ODU3NTM5Mjk5Merq6urq6urq6urq6urq6urqIjogMX19fQoKICAgICAgICB7InJlcXVlc3QiOiB7Im1ldGhvZCI6ICJQ",
        "T1NUIiwgInBhdGgiOiAiZW50IiwgImJvZHkiOiB7Im4gIjo5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTF9",
        "fSwgInJlc3BvbnNlIjogeyJzdGF0dXMiOiAyMDAsICJib2R5IjogeyJva+rq6urq6uo4ODjxkaWfizg4ODg4ODg4ITg4////",
        "///////xkaWfi///////OTk2Nzg1NzUzOTI5OTLq6urq6urq6urq6urq6urq6iI6IDF9fX0KCiAgICAgICAgeyJyZXF1ZXN0",
        "IjogeyJtZXRob2QiOiAiUE9TVCIsICJwYXRoIjogImVudCIsICJib2R5IjogeyJu////////////////////////////////",
        "////////////////////////////////////////////////////////////ICI6MX19LCAicmVzcG9uc2UiOiB7InN0YXR1",
        "cyI6IDE5OSwgImJvZHkiOiB7Im9r6urq6urq6jkyN/GRpZ+LODg4bG1ub3Br6urq6urq6jg4OPGRpZ+LODg4ODg4ODghODj/",
        "//////////GRpZ+L//////////84MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDUwMTc3OTk2Nzj///GRpZ+L//////////84MDAw",
        "MDAwMDAwMDAwMDAwMHAwMMXFxTAwMDAwMDUwMTc3OTkoNjc4NYs4ODg4ODg4OCE4OP//////////8ZGln4v//////////zgw",
        "MDAwMDAwMDAwMDAwMDAwMDAwMDAwNTAxNzc5ODg48ZGln4s4ODg4ODg4OCE4OP////////////////84MDAwMDAwMDAwMDAw",
        "MDAwMDAwMDAwMDUwMTc3OTk2Nzg1NzUzOTI5OTLq6urq6urq6urq6urq6urq6iI6IDF9fX0KCiAgICAgICAgeyJyZXF1ZXN0",
        "IjogeyJtZXRob2QiOiAiUE9TVCIsICJwYXRoIjogImVudCIsICJib2R5IjogeyLigJ1uIP//////////////////////////",
        "/////////////////////////////yI6MX19LCAicmVzcG9uc2UiOiB7InN0YXR1cyI6IDIwMCwgImJvZHkiOiB7Im9BSXph",
        "U3lGdXp6S2V5MDEyMzQ1Njc4OWFiY2RlZmdoaWprOTk2Nzg1NzUzOTI5OTHq6urq6urq6urq6urq6urq6iI6IDF9fX0KCiAg",
        "ICAgICAgeyJyZXF1ZXN0IjogeyJ7InJlcXVlc3QiOiB7Im1ldGhvZCI6ICJQT1NUIiwgInBhdGgiOiAvdjFiZXRhL21vZGVs",
        "cy9tOmdlbmVyYXRlQ29udGVudP//////////////////////////////////////////////////////////////////////",
        "//8gIjoxfX0sICJyZXNwb25zZSI6IHsic3RhdP//////////////MHAwMDAwxcXFcw==",
    ].joined()

    static func exchange(body: String) throws -> GeminiTapeExchange {
        let line =
            #"{"request":{"method":"POST","path":"/p","body":"# + body + #"},"response":{"status":200}}"#
        let tape = try GeminiTape(parsing: GeminiTape.headerLine + "\n" + line + "\n")
        return try #require(tape.exchanges.first)
    }

    @Test func everyRecordedRequestOfTheFuzzInputMatchesItself() throws {
        let data = try #require(Data(base64Encoded: Self.fuzzInput))
        #expect(data.count == 2281)
        let text = String(decoding: data, as: UTF8.self)
        // Its last line, without a newline, breaks in its middle: corruption, not a recording
        // cut by a kill (that fails only at its end), so the whole input is refused.
        #expect(throws: GeminiTapeError.self) { try GeminiTape(parsing: text) }
        let lines = try #require(text.lastIndex(of: "\n"))
        let tape = try GeminiTape(parsing: String(text[...lines]))
        #expect(tape.exchanges.count == 5)
        for (index, exchange) in tape.exchanges.enumerated() {
            #expect(
                GeminiTapeReplayer.mismatch(recorded: exchange, sent: exchange.request, request: index + 1)
                    == nil)
        }
    }

    @Test(arguments: [
        (#"{"k":"a","k":"b"}"#, nil),
        (#"{"k":"b"}"#, nil),
        (#"{"k":"a"}"#, #"request 1: body differs at $.k: recorded "b", got "a""#),
        (#"{"j":1,"k":"b"}"#, #"request 1: body differs at $.j: recorded (absent), got 1"#),
    ])
    func repeatedKeysCountOnceWithTheirLastValue(sent: String, message: String?) throws {
        let exchange = try Self.exchange(body: #"{"k":"a","k":"b"}"#)
        let request = GeminiTapeRequest(method: "POST", path: "/p", body: try JSONValue(parsing: sent))
        let mismatch = GeminiTapeReplayer.mismatch(recorded: exchange, sent: request, request: 1)
        #expect(mismatch?.description == message)
    }

    @Test func largeObjectsCompareMemberByMember() throws {
        let members = (0..<100_000).map { JSONMember("k\($0)", .integer($0)) }
        let body = JSONValue.object(members)
        var changed = members
        changed[99_999] = JSONMember("k99999", .integer(-1))
        let exchange = GeminiTapeExchange(
            request: GeminiTapeRequest(method: "POST", path: "/p", body: body),
            response: GeminiTapeResponse(status: 200))
        let same = GeminiTapeRequest(method: "POST", path: "/p", body: .object(members.reversed()))
        #expect(GeminiTapeReplayer.mismatch(recorded: exchange, sent: same, request: 1) == nil)
        let other = GeminiTapeRequest(method: "POST", path: "/p", body: .object(changed))
        #expect(
            GeminiTapeReplayer.mismatch(recorded: exchange, sent: other, request: 1)?.description
                == "request 1: body differs at $.k99999: recorded 99999, got -1")
    }
}
