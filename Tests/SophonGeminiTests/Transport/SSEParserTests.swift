import Foundation
import Testing

@testable import SophonGemini

/// The SSE parser: line ends, `data:` forms, comments, split reads, raw errors, truncation.
@Suite struct SSEParserTests {
    func parse(_ pieces: [String]) -> [SSEParser.Item] {
        var parser = SSEParser()
        var items: [SSEParser.Item] = []
        for piece in pieces { items += parser.feed(Data(piece.utf8)) }
        return items + parser.finish()
    }

    @Test(arguments: [
        (
            ["data: {\"a\":1}\r\n\r\ndata: {\"b\":2}\r\n\r\n"],
            [SSEParser.Item.event("{\"a\":1}"), .event("{\"b\":2}")]
        ),
        (["data:{\"a\":1}\n\n"], [.event("{\"a\":1}")]),
        (["data: x\r\rdata: y\r\r"], [.event("x"), .event("y")]),
        (["data: one\ndata: two\n\n"], [.event("one\ntwo")]),
        ([": keep-alive\n", "event: message\nid: 7\nretry: 10\ndata: z\n\n"], [.event("z")]),
        (["data: a\r", "\n\r", "\ndata: b\r\n\r\n"], [.event("a"), .event("b")]),
        (["data: {\"text\":\"Hel", "lo\"}\r\n", "\r\n"], [.event("{\"text\":\"Hello\"}")]),
        (["data: {\"cut\":"], [.truncated("{\"cut\":")]),
        (["data: {\"a\":1}"], [.truncated("{\"a\":1}")]),
        (
            ["data: {\"a\":1}\r\n\r\n{\n  \"error\": {\n    \"code\": 500\n  }\n}\n"],
            [.event("{\"a\":1}"), .raw("{\n  \"error\": {\n    \"code\": 500\n  }\n}")]
        ),
        (["<html>oops</html>\n"], [.raw("<html>oops</html>")]),
        (["\u{FEFF}"], []),
        ([""], []),
    ])
    func items(pieces: [String], expected: [SSEParser.Item]) {
        #expect(parse(pieces) == expected)
    }

    /// One row per framing rule of server-sent events (the HTML standard), each fed whole and
    /// byte by byte.
    @Test(arguments: [
        // Empty data: a `data:` event with nothing in it is a keep-alive, between events or alone.
        ("empty data", "data: 1\n\ndata:\n\ndata: 2\n\n", [SSEParser.Item.event("1"), .event("2")]),
        ("empty data, no colon", "data\n\ndata: 3\n\n", [.event("3")]),
        ("empty data at EOF", "data: 1\n\ndata:", [.event("1")]),
        ("empty first line of data", "data:\ndata: x\n\n", [.event("\nx")]),
        // Comment lines are ignored wherever they come.
        ("comments", ":hi\ndata: a\n: mid\ndata: b\n\n:\n\n", [.event("a\nb")]),
        // Several data lines are joined with one LF; only one space after the colon is dropped.
        ("multi-line data", "data: {\"a\":\ndata:  1}\n\n", [.event("{\"a\":\n 1}")]),
        ("colon in value", "data: a: b\n\n", [.event("a: b")]),
        // event/id/retry fields never become data; an event with only them is not reported.
        ("event field", "event: update\ndata: e\n\nevent: ping\n\n", [.event("e")]),
        ("id field", "id: 42\ndata: i\n\nid\n\n", [.event("i")]),
        ("retry field", "retry: 3000\ndata: r\n\nretry: soon\n\n", [.event("r")]),
        // CR, LF and CRLF line ends, mixed in one stream.
        ("CR", "data: c\r\r", [.event("c")]),
        ("LF", "data: l\n\n", [.event("l")]),
        ("CRLF", "data: cl\r\n\r\n", [.event("cl")]),
        ("mixed", "data: m\r\ndata: n\r\rdata: o\n\n", [.event("m\nn"), .event("o")]),
        // A leading byte-order mark is ignored; one later is content.
        ("leading BOM", "\u{FEFF}data: b\n\n", [.event("b")]),
        ("BOM only once", "\u{FEFF}data: \u{FEFF}b\n\n", [.event("\u{FEFF}b")]),
        ("BOM then comment", "\u{FEFF}: c\ndata: d\n\n", [.event("d")]),
    ])
    func framingRule(rule: String, text: String, expected: [SSEParser.Item]) {
        #expect(parse([text]) == expected, "\(rule)")
        var parser = SSEParser()
        var items: [SSEParser.Item] = []
        for byte in Data(text.utf8) { items += parser.feed(Data([byte])) }
        items += parser.finish()
        #expect(items == expected, "\(rule), byte by byte")
    }

    @Test func idAndRetryFieldsAreKept() {
        var parser = SSEParser()
        _ = parser.feed(Data("id: 7\nretry: 1500\ndata: x\n\nretry: 2s\nid: a\u{0}b\n\n".utf8))
        #expect(parser.lastEventID == "7")
        #expect(parser.retryMilliseconds == 1500)
        _ = parser.feed(Data("id\n\n".utf8))
        #expect(parser.lastEventID == "")
    }

    @Test func byteByByteFeedingGivesTheSameEvents() {
        let text = "data: {\"t\":\"héllo 世界\"}\r\n\r\n: c\r\ndata: 2\r\n\r\n"
        var parser = SSEParser()
        var items: [SSEParser.Item] = []
        for byte in Data(text.utf8) { items += parser.feed(Data([byte])) }
        items += parser.finish()
        #expect(items == [.event("{\"t\":\"héllo 世界\"}"), .event("2")])
    }
}
