import Foundation

/// Splits a `text/event-stream` body into events, fed in whatever pieces the network delivers.
///
/// Accepts `\r\n`, `\n` and `\r` line ends (also when a `\r\n` pair is split between reads),
/// `data:` with or without one space, several `data:` lines joined with `\n`, and ignores `:`
/// comments and `event:`/`id:`/`retry:` fields. Lines that are not SSE fields (a raw JSON error
/// object sent without `data:` after a 200) are collected as ``Item/raw(_:)``: reported as soon
/// as they form a complete error body, else at ``finish()``. An event not closed by a blank
/// line before EOF is truncation: ``finish()`` reports it as ``Item/truncated(_:)``.
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

    /// Creates a parser.
    package init() {}

    /// Feeds the next bytes; returns the items they complete.
    package mutating func feed(_ bytes: Data) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
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
        if !line.isEmpty { endLine(into: &items) }
        if !dataLines.isEmpty {
            items.append(.truncated(dataLines.joined(separator: "\n")))
            dataLines = []
        }
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
            if !dataLines.isEmpty {
                items.append(.event(dataLines.joined(separator: "\n")))
                dataLines = []
            }
            return
        }
        if text.hasPrefix("data:") {
            var value = text.dropFirst(5)
            if value.first == " " { value = value.dropFirst() }
            dataLines.append(String(value))
        } else if text.hasPrefix(":") || text.hasPrefix("event:") || text.hasPrefix("id:")
            || text.hasPrefix("retry:")
        {
            return
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
}
