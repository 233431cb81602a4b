import SophonCore

/// Prints what commands produce in one output format (docs/commands.md, "--json output"): results on
/// stdout (with `--json`, one envelope object per command), failures as an envelope and a
/// message on stderr, and the closing tally of expectations.
struct ResultPrinter {
    let io: ShellIO
    let format: OutputFormat

    /// Prints the result of the command typed as `text`.
    func print(_ result: CommandResult, for text: String) {
        switch result {
        case .exit, .none:
            if format == .json { io.printLine(Self.envelope(text, ok: true, extra: []).compactText) }
        case .text(let line):
            switch format {
            case .json:
                io.printLine(
                    Self.envelope(text, ok: true, extra: [JSONMember("result", .string(line))]).compactText)
            case .pretty, .raw: io.printLine(line)
            }
        case .report(let line, let data):
            switch format {
            case .json:
                io.printLine(Self.envelope(text, ok: true, extra: [JSONMember("result", data)]).compactText)
            case .pretty, .raw: io.printLine(line)
            }
        case .reply(let reply):
            switch format {
            case .json:
                io.printLine(
                    Self.envelope(text, ok: true, extra: [JSONMember("result", reply.value)] + reply.envelope)
                        .compactText)
            case .pretty, .raw:
                if reply.alreadyPrinted { break }
                if let display = reply.display {
                    io.printLine(display)
                } else {
                    io.printLine(format == .pretty ? reply.value.prettyText : reply.value.compactText)
                }
            }
        case .value(let value):
            switch format {
            case .json:
                io.printLine(Self.envelope(text, ok: true, extra: [JSONMember("result", value)]).compactText)
            case .pretty: io.printLine(value.prettyText)
            case .raw: io.printLine(value.stringValue ?? value.compactText)
            }
        case .lazyValue(let value):
            print(value, for: text)
        }
    }

    /// Prints a value kept as text, the bytes ``print(_:for:)`` prints for the same
    /// ``CommandResult/value(_:)``, streamed from the text in large chunks (no tree, no copy).
    private func print(_ value: LazyJSONValue, for text: String) {
        switch format {
        case .json:
            // `{"command":...,"ok":true,"result":VALUE}`: the envelope without its closing brace,
            // then the value's text as it is.
            var head = Self.envelope(text, ok: true, extra: []).compactText
            head.removeLast()
            io.stdout.write(head + ",\"result\":")
            writeCompact(value)
            io.stdout.write("}\n")
        case .pretty:
            value.writePretty { io.stdout.write(bytes: $0) }
            io.stdout.write("\n")
        case .raw:
            if let string = value.stringValue {
                io.printLine(string)
            } else {
                writeCompact(value)
                io.stdout.write("\n")
            }
        }
    }

    /// Writes the compact text in chunks of at most 64 KiB, each ending on a whole character
    /// (straight from the value's text: the chunk size only bounds each `write`).
    private func writeCompact(_ value: LazyJSONValue) {
        value.withCompactUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = min(bytes.count, start + (1 << 16))
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                io.stdout.write(
                    bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<end]))
                start = end
            }
        }
    }

    /// Prints a failure of the command typed as `text`: the envelope with `--json` (`error`,
    /// then the failure's own members beside it), and `rendered` (the located message) on stderr.
    func print(_ failure: CommandFailure, for text: String, rendered: String) {
        if format == .json { io.printLine(Self.jsonLine(failure, for: text)) }
        io.printError(rendered)
    }

    /// The `--json` line of a failed command (without its line end): `{"command", "ok": false,
    /// "error": {"kind", "message", ...}}` and the failure's own members beside `error`.
    static func jsonLine(_ failure: CommandFailure, for text: String) -> String {
        let error = JSONValue.object(
            [
                JSONMember("kind", .string(failure.kind.rawValue)),
                JSONMember("message", .string(failure.message)),
            ] + failure.details)
        return envelope(text, ok: false, extra: [JSONMember("error", error)] + failure.envelope).compactText
    }

    /// The closing tally: `N passed, N failed`, or `{"summary": ...}` with `--json`.
    func printTally(passed: Int, failed: Int) {
        io.printLine(Self.tallyLine(passed: passed, failed: failed, format: format))
    }

    /// The closing tally without its line end: `N passed, N failed`, or
    /// `{"summary": {"passed": N, "failed": N}}` under `--json`.
    static func tallyLine(passed: Int, failed: Int, format: OutputFormat) -> String {
        guard format == .json else { return "\(passed) passed, \(failed) failed" }
        let summary = JSONValue.object([
            JSONMember("passed", .integer(passed)), JSONMember("failed", .integer(failed)),
        ])
        return JSONValue.object([JSONMember("summary", summary)]).compactText
    }

    private static func envelope(_ text: String, ok: Bool, extra: [JSONMember]) -> JSONValue {
        .object([JSONMember("command", .string(Self.shown(text))), JSONMember("ok", .bool(ok))] + extra)
    }

    /// Whether a command line holds a secret: `key set VALUE` (refused, and never kept in
    /// history).
    static func holdsSecret(_ text: String) -> Bool {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.count > 2 && words[0] == "key" && words[1] == "set"
    }

    /// A command line as it may be shown (`--echo`, `--json`'s `command`): `key set VALUE` with
    /// the value masked (`key set ••••4567`).
    static func shown(_ text: String) -> String {
        guard holdsSecret(text) else { return text }
        let value = text.split(whereSeparator: \.isWhitespace).dropFirst(2).joined(separator: " ")
        return "key set " + SecretMask.mask(value)
    }
}

/// How results are printed (`set output pretty|json|raw`, `--json`; docs/language.md).
enum OutputFormat: String, Sendable, Equatable, CaseIterable {
    /// Indented JSON values, text as is.
    case pretty
    /// One JSON object per command on one line of stdout.
    case json
    /// Strings without quotes, other values as compact JSON.
    case raw
}

/// What a command produced.
enum CommandResult: Sendable, Equatable {
    /// A state change, or a command that printed its own output.
    case none
    /// Text to print (`echo`); not a value, so `$last` stays.
    case text(String)
    /// A report a person reads (`show`, `models`, `tools`) and the same facts as data, which
    /// `--json` prints as the result (named members, never the sentence); not a value, so
    /// `$last` stays.
    case report(String, data: JSONValue)
    /// A JSON value: printed by the shell in the current output format, and becomes `$last`.
    case value(JSONValue)
    /// A JSON value kept as compact text (a large `extract` result): printed from its text
    /// without building a tree, and becomes `$last`, parsed only when a later command reads
    /// into it. Prints exactly as ``value(_:)`` of the same value does.
    case lazyValue(LazyJSONValue)
    /// `exit [N]`/`quit`: ends the whole run; `nil` means 1 if any command failed, else 0.
    case exit(Int32?)
    /// The answer of a Gemini call: a value for `$last`, with what `--json` adds.
    case reply(CallReply)
}

/// A Gemini call's answer as the shell prints it (docs/commands.md, "--json output").
struct CallReply: Sendable, Equatable {
    /// The value (`$last`): the decoded JSON of a structured answer, else the text as a string.
    var value: JSONValue
    /// Text printed instead of the value in pretty and raw output (a text answer); `nil`
    /// prints the value.
    var display: String?
    /// Whether the text was already streamed to stdout as it arrived.
    var alreadyPrinted = false
    /// `--json` members: `model`, `usage`, `retries`.
    var envelope: [JSONMember]
}
