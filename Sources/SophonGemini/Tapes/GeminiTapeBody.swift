import Foundation
import SophonCore

/// Converts bodies and SSE streams between bytes and their tape form.
///
/// One rule everywhere: text that parses as a JSON object or array is kept as that value,
/// anything else (an HTML page, `[DONE]`, a bare `42`) as the text itself, a string, so a
/// replay gives back the same text. Bytes that are not UTF-8 are decoded with replacement
/// characters.
enum GeminiTapeBody {
    /// The tape value of a body or event text.
    static func value(of text: String) -> JSONValue {
        switch try? JSONValue(parsing: text) {
        case .some(let value) where isContainer(value): value
        default: .string(text)
        }
    }

    /// The tape value of a body's bytes.
    static func value(of data: Data) -> JSONValue {
        value(of: String(decoding: data, as: UTF8.self))
    }

    /// A request body's tape value: ``JSONValue/null`` for none.
    static func requestValue(of data: Data?) -> JSONValue {
        data.map { value(of: $0) } ?? .null
    }

    /// A response body's payload: `nil` for an empty body.
    static func payload(of data: Data) -> GeminiTapeResponse.Payload? {
        data.isEmpty ? nil : .body(value(of: data))
    }

    /// The payload of a `text/event-stream` body: its events, the non-SSE text (joined with
    /// `\n`) and the data of an event cut by the end of the stream.
    static func eventsPayload(of data: Data) -> GeminiTapeResponse.Payload {
        var parser = SSEParser()
        var events: [JSONValue] = []
        var raw: [String] = []
        var unterminated: String?
        for item in parser.feed(data) + parser.finish() {
            switch item {
            case .event(let text): events.append(value(of: text))
            case .raw(let text): raw.append(text)
            case .truncated(let text): unterminated = text
            }
        }
        let trailer = raw.isEmpty ? nil : value(of: raw.joined(separator: "\n"))
        return .events(events, trailer: trailer, unterminated: unterminated)
    }

    /// The bytes a recorded body replays as: objects and arrays pretty-printed with two spaces
    /// and a final newline (as the API sends them), strings as their text, other values as
    /// compact JSON, `null` as nothing.
    static func data(of value: JSONValue) -> Data {
        switch value {
        case .null: Data()
        case .string(let text): Data(text.utf8)
        case .object, .array: Data((value.prettyText + "\n").utf8)
        default: Data(value.compactText.utf8)
        }
    }

    /// The chunks a payload replays as: one `data: <compact JSON>\r\n\r\n` per event (string
    /// events as their text, one `data:` line per line), then the trailer as its own chunk, then
    /// the cut event without its closing blank line.
    static func chunks(of payload: GeminiTapeResponse.Payload?) -> [Data] {
        switch payload {
        case .none: return []
        case .body(let value):
            let data = data(of: value)
            return data.isEmpty ? [] : [data]
        case .events(let events, let trailer, let unterminated):
            var chunks = events.map { Data((dataLines(of: $0) + "\r\n\r\n").utf8) }
            if let trailer { chunks.append(data(of: trailer)) }
            if let unterminated { chunks.append(Data(dataLines(of: .string(unterminated)).utf8)) }
            return chunks
        }
    }

    /// `data: ...` for each line of the event's text, joined with `\r\n` (no final line end).
    private static func dataLines(of event: JSONValue) -> String {
        let text: String =
            switch event {
            case .string(let text): text
            default: event.compactText
            }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
            .joined(separator: "\r\n")
    }

    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: true
        default: false
        }
    }
}
