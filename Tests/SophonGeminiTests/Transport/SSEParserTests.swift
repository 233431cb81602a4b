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
        (["\u{FEFF}"], [.raw("\u{FEFF}")]),
        ([""], []),
    ])
    func items(pieces: [String], expected: [SSEParser.Item]) {
        #expect(parse(pieces) == expected)
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
