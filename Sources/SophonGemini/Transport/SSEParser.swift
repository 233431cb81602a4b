import Foundation

/// Splits a `text/event-stream` body into events, fed in whatever pieces the network delivers.
///
/// Follows the event-stream framing rules of the HTML standard's server-sent events: `\r\n`,
/// `\n` and `\r` line ends (also when a `\r\n` pair is split between reads); one leading byte-order mark ignored; a
/// field's value is what follows its first `:`, less one space (a field name alone has an empty
/// value); several `data` lines joined with `\n`; a blank line ends an event; an event whose data
/// is empty (`data:` alone, or only `event`/`id`/`retry` lines) is a keep-alive and not reported;
/// `:` comment lines are ignored; `event` is ignored (Gemini sends only unnamed events); `id`
/// sets ``lastEventID`` (unless it holds a NUL); `retry` sets ``retryMilliseconds`` when it is
/// all ASCII digits. Lines that are not SSE fields (a raw JSON error object sent without `data:`
/// after a 200) are collected as ``Item/raw(_:)``: reported as soon as they form a complete
/// error body, else at ``finish()``. An event not closed by a blank line before EOF is
/// truncation: ``finish()`` reports it as ``Item/truncated(_:)``.
package struct SSEParser: Sendable {
    /// One parsed item.
    package enum Item: Sendable, Hashable {
        /// The data of one complete event.
        case event(String)
        /// Non-SSE text (lines joined with `\n`), e.g. a raw `{"error": ...}` object.
        case raw(String)
        /// The data of an event cut by EOF.
        case truncated(String)
    }

    private var line: [UInt8] = []
    private var pendingCarriageReturn = false
    private var dataLines: [String] = []
    private var rawLines: [String] = []
    /// How many bytes of a leading byte-order mark (`EF BB BF`) have been matched, or `nil`
    /// once the start of the stream is past.
    private var byteOrderMarkMatched: Int? = 0

    /// The value of the last `id` field, `""` before any (the SSE "last event ID").
    package private(set) var lastEventID = ""
    /// The reconnection time from the last valid `retry` field, in milliseconds.
    package private(set) var retryMilliseconds: Int?

    /// Creates a parser.
    package init() {}

    /// Feeds the next bytes; returns the items they complete.
    package mutating func feed(_ bytes: Data) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if let matched = byteOrderMarkMatched {
                if byte == Self.byteOrderMark[matched] {
                    byteOrderMarkMatched = matched + 1 == Self.byteOrderMark.count ? nil : matched + 1
                    continue
                }
                byteOrderMarkMatched = nil
                line.append(contentsOf: Self.byteOrderMark[..<matched])
            }
            if pendingCarriageReturn {
                pendingCarriageReturn = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                pendingCarriageReturn = true
                endLine(into: &items)
            case 0x0A:
                endLine(into: &items)
            default:
                line.append(byte)
            }
        }
        return items
    }

    /// Ends the input; returns the item the last bytes leave behind, if any.
    package mutating func finish() -> [Item] {
        var items: [Item] = []
        if let matched = byteOrderMarkMatched, matched > 0 {
            line.append(contentsOf: Self.byteOrderMark[..<matched])
        }
        byteOrderMarkMatched = nil
        if !line.isEmpty { endLine(into: &items) }
        let data = dataLines.joined(separator: "\n")
        dataLines = []
        if !data.isEmpty { items.append(.truncated(data)) }
        if !rawLines.isEmpty {
            items.append(.raw(rawLines.joined(separator: "\n")))
            rawLines = []
        }
        return items
    }

    private mutating func endLine(into items: inout [Item]) {
        let text = String(decoding: line, as: UTF8.self)
        line = []
        if text.isEmpty {
            let data = dataLines.joined(separator: "\n")
            dataLines = []
            if !data.isEmpty { items.append(.event(data)) }
            return
        }
        if text.hasPrefix(":") { return }
        if let (name, value) = Self.field(text) {
            switch name {
            case "data": dataLines.append(value)
            case "id": if !value.contains("\u{0}") { lastEventID = value }
            case "retry":
                if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                    retryMilliseconds = Int(value)
                }
            default: break
            }
        } else {
            rawLines.append(text)
            if text.hasSuffix("}") || text.hasSuffix("]") {
                let joined = rawLines.joined(separator: "\n")
                if GoogleRPCErrorBody.parse(Data(joined.utf8)) != nil {
                    items.append(.raw(joined))
                    rawLines = []
                }
            }
        }
    }

    /// The UTF-8 byte-order mark.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The names of the fields the SSE format defines.
    private static let fieldNames: Set<Substring> = ["data", "event", "id", "retry"]

    /// A line read as an SSE field (`NAME: VALUE` or `NAME` alone), when NAME is one the format
    /// defines; `nil` for any other line.
    private static func field(_ text: String) -> (name: Substring, value: String)? {
        guard let colon = text.firstIndex(of: ":") else {
            return fieldNames.contains(Substring(text)) ? (Substring(text), "") : nil
        }
        let name = text[..<colon]
        guard fieldNames.contains(name) else { return nil }
        var value = text[text.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (name, String(value))
    }
}
