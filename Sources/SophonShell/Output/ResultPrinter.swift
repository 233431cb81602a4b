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
            if format == .json { io.printLine(envelope(text, ok: true, extra: []).compactText) }
        case .text(let line):
            switch format {
            case .json:
                io.printLine(
                    envelope(text, ok: true, extra: [JSONMember("result", .string(line))]).compactText)
            case .pretty, .raw: io.printLine(line)
            }
        case .reply(let reply):
            switch format {
            case .json:
                io.printLine(
                    envelope(text, ok: true, extra: [JSONMember("result", reply.value)] + reply.envelope)
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
                io.printLine(envelope(text, ok: true, extra: [JSONMember("result", value)]).compactText)
            case .pretty: io.printLine(value.prettyText)
            case .raw: io.printLine(value.stringValue ?? value.compactText)
            }
        }
    }

    /// Prints a failure of the command typed as `text`: the envelope with `--json`, and
    /// `rendered` (the located message) on stderr.
    func print(_ failure: CommandFailure, for text: String, rendered: String) {
        if format == .json {
            let error = JSONValue.object([
                JSONMember("kind", .string(failure.kind.rawValue)),
                JSONMember("message", .string(failure.message)),
            ])
            io.printLine(envelope(text, ok: false, extra: [JSONMember("error", error)]).compactText)
        }
        io.printError(rendered)
    }

    /// The closing tally: `N passed, N failed`, or `{"summary": ...}` with `--json`.
    func printTally(passed: Int, failed: Int) {
        if format == .json {
            let summary = JSONValue.object([
                JSONMember("passed", .integer(passed)), JSONMember("failed", .integer(failed)),
            ])
            io.printLine(JSONValue.object([JSONMember("summary", summary)]).compactText)
        } else {
            io.printLine("\(passed) passed, \(failed) failed")
        }
    }

    private func envelope(_ text: String, ok: Bool, extra: [JSONMember]) -> JSONValue {
        .object([JSONMember("command", .string(text)), JSONMember("ok", .bool(ok))] + extra)
    }
}
