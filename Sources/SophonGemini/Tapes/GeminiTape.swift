import Foundation
import SophonCore

/// A loaded tape: the exchanges of a recorded run, in order (docs/tapes.md).
///
/// The file is JSON Lines: the header `{"sophonTape": 1}`, then one ``GeminiTapeExchange``
/// per line. Blank lines are skipped and `\r\n` line ends accepted, so tapes can be written by
/// hand. A last line without its newline that is the start of a JSON text is what a killed
/// recording leaves: it is dropped with a warning, not an error (one that breaks before its
/// end is an error, as on any other line).
public struct GeminiTape: Sendable, Hashable {
    /// The format version this code writes and reads.
    public static let version = 1
    /// The header line a recording starts with.
    public static let headerLine = #"{"sophonTape":1}"#

    /// The exchanges, in recorded order.
    public var exchanges: [GeminiTapeExchange]
    /// Problems tolerated while loading, one line each (`line 7: ...`).
    public var warnings: [String]
    /// The tool calls of the run, in call order: the `tool` objects of the tape's
    /// `{"tool": {"name", "args", "server", "result" | "error"}}` lines (docs/tapes.md).
    public var toolCalls: [JSONValue] = []

    /// Creates a tape from exchanges.
    public init(exchanges: [GeminiTapeExchange], warnings: [String] = []) {
        self.exchanges = exchanges
        self.warnings = warnings
    }

    /// Loads the tape file at `url`.
    /// - Throws: ``GeminiTapeError/unreadable(path:reason:)`` when the file cannot be read or is
    ///   a folder or a device (a FIFO is read to its end), and
    ///   the errors of ``init(parsing:)``.
    public init(contentsOf url: URL) throws(GeminiTapeError) {
        if let kind = AtomicFile.unreadableKind(at: url.path) {
            // A device such as /dev/zero never ends; a FIFO the user named is read (docs/files.md).
            throw GeminiTapeError.unreadable(path: url.path, reason: "it is \(kind), not a regular file")
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
            throw GeminiTapeError.unreadable(path: url.path, reason: reason)
        }
        try self.init(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Parses tape text.
    /// - Throws: ``GeminiTapeError/missingHeader(line:)`` when the first non-blank line is not
    ///   a tape header, ``GeminiTapeError/unsupportedVersion(_:line:)`` for another version,
    ///   ``GeminiTapeError/invalidJSON(line:column:message:)`` for a line that is not JSON
    ///   (other than a cut last line), ``GeminiTapeError/invalidExchange(line:reason:)`` for
    ///   JSON that is neither an exchange nor a `tool` line's call (the reason then starts
    ///   with `tool: `).
    public init(parsing text: String) throws(GeminiTapeError) {
        // Split the bytes: as Characters, "\r\n" is one grapheme and would not split at "\n".
        var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let endsWithNewline = lines.last?.isEmpty ?? true
        if endsWithNewline, !lines.isEmpty { lines.removeLast() }
        var exchanges: [GeminiTapeExchange] = []
        var warnings: [String] = []
        var toolCalls: [JSONValue] = []
        var sawHeader = false
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
            if line.allSatisfy(\.isWhitespace) { continue }
            let json: JSONValue
            do {
                json = try JSONValue(parsing: line)
            } catch {
                // A kill leaves the start of a line, and the start of a JSON text fails only
                // where the input ends (an open container, string, number, or a literal such
                // as `tr`); a line that breaks before its end was edited, not cut.
                if index == lines.count - 1, !endsWithNewline, error.inputEnded {
                    warnings.append(
                        "line \(number): the last line is incomplete (a recording cut short); ignored")
                    break
                }
                guard sawHeader else { throw GeminiTapeError.missingHeader(line: number) }
                throw GeminiTapeError.invalidJSON(line: number, column: error.column, message: error.message)
            }
            guard sawHeader else {
                try Self.checkHeader(json, line: number)
                sawHeader = true
                continue
            }
            if let call = json["tool"] {
                toolCalls.append(try Self.toolCall(call, line: number))
                continue
            }
            exchanges.append(try GeminiTapeExchange(json: json, line: number))
        }
        guard sawHeader else { throw GeminiTapeError.missingHeader(line: 1) }
        self.init(exchanges: exchanges, warnings: warnings)
        self.toolCalls = toolCalls
    }

    /// A `tool` line's call, checked: an object with a string `name`, an object `args` and a
    /// string `server` when present, and one of `result` (any value) or `error` (a string).
    private static func toolCall(_ call: JSONValue, line: Int) throws(GeminiTapeError) -> JSONValue {
        let fields = TapeFields(call, at: "tool", line: line)
        try fields.requireObject()
        _ = try fields.string("name")
        if let args = call["args"] {
            guard case .object = args else {
                throw fields.failure("args must be an object, got \(args.typeName)")
            }
        }
        if call["server"] != nil { _ = try fields.string("server") }
        switch (call["result"], call["error"]) {
        case (nil, nil): throw fields.failure("result or error is missing")
        case (.some, .some): throw fields.failure("has both result and error")
        case (nil, .some): _ = try fields.string("error")
        case (.some, nil): break
        }
        return call
    }

    private static func checkHeader(_ json: JSONValue, line: Int) throws(GeminiTapeError) {
        guard case .object = json, let version = json["sophonTape"] else {
            throw GeminiTapeError.missingHeader(line: line)
        }
        guard case .number(let number) = version, Int(number.text) == Self.version else {
            throw GeminiTapeError.unsupportedVersion(version.compactText, line: line)
        }
    }
}
