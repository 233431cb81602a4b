/// A parse error in shell input, with the place it happened.
///
/// Rendered for scripts as `FILE:LINE:COL: error: MESSAGE`, then the source line, then a caret
/// line with the caret under the column (docs/language.md, "Errors and locations"). LINE is the
/// first physical line of the command, as for every script error; COL and the source line shown
/// are those of the physical line the caret points into (a later line of a command continued
/// with `\` or a `"""` block). Interactive input renders as `error: MESSAGE` (no location)
/// followed by the same two lines.
struct ShellSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source name: a path, `-c:N`, `<stdin>` or `<input>`.
    let sourceName: String
    /// The 1-based physical line of the error (the line shown with the caret).
    let line: Int
    /// The 1-based first physical line of the command holding the error, the LINE of the
    /// header; `nil` when it is ``line``.
    var commandLine: Int?
    /// The 1-based column of the error, counted in characters (grapheme clusters).
    let column: Int
    /// What is wrong, without location: `invalid escape '\q' in double quotes`.
    let message: String
    /// The text of physical line ``line`` without its newline.
    let sourceLine: String
    /// Whether the input ended inside an open construct (quote, `"""` block, trailing
    /// backslash): more input could complete it, so the REPL shows its continuation prompt.
    let isIncomplete: Bool

    /// Creates an error; normally made by ``ShellSource/error(_:at:isIncomplete:)``.
    init(
        sourceName: String, line: Int, column: Int, message: String, sourceLine: String,
        isIncomplete: Bool = false
    ) {
        self.sourceName = sourceName
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
        self.isIncomplete = isIncomplete
    }

    /// The script form: `FILE:LINE:COL: error: MESSAGE`, the source line, the caret line;
    /// lines joined by `\n`, no final newline.
    var description: String { rendered(withLocation: true) }

    /// The error as printed on stderr.
    ///
    /// - Parameter withLocation: `true` for scripts, `-c` and stdin
    ///   (`FILE:LINE:COL: error: MESSAGE`); `false` for interactive input (`error: MESSAGE`).
    /// - Returns: three lines joined by `\n` (header, source line, caret line), no final newline.
    ///   A source line longer than ``maximumShownLength`` characters is shown as an excerpt
    ///   around the column (see ``excerpt(of:around:)``).
    func rendered(withLocation: Bool) -> String {
        let header =
            withLocation
            ? "\(sourceName):\(commandLine ?? line):\(column): error: \(message)"
            : "error: \(message)"
        let shown = ShellSyntaxError.excerpt(of: sourceLine, around: column)
        return header + "\n" + shown.text + "\n"
            + ShellSyntaxError.caretLine(
                under: shown.column, of: shown.text)
    }

    /// The longest source line shown whole under an error, in characters.
    static let maximumShownLength = 120

    /// The part of `line` shown under an error: the whole line when it has at most
    /// ``maximumShownLength`` characters; else that many characters around `column` (half of
    /// them before it, or the last ones near the end), with `…` marking each cut end, so a 10 MB line
    /// gives a readable error, not 20 MB of stderr.
    /// - Returns: the text and the column of the error within it (1-based, in characters).
    static func excerpt(of line: String, around column: Int) -> (text: String, column: Int) {
        let count = line.count
        guard count > maximumShownLength else { return (line, column) }
        let start = max(0, min(column - 1 - maximumShownLength / 2, count - maximumShownLength))
        let end = min(count, start + maximumShownLength)
        let middle = line.dropFirst(start).prefix(end - start)
        let text = (start > 0 ? "…" : "") + middle + (end < count ? "…" : "")
        return (text, column - start + (start > 0 ? 1 : 0))
    }

    /// A line with `^` under 1-based `column` of `line`.
    ///
    /// The padding copies tabs from the source line so the caret lines up whatever the tab
    /// width; a wide character (CJK, emoji, which terminals draw two cells wide) pads with two
    /// spaces; other characters pad with one space.
    static func caretLine(under column: Int, of line: String) -> String {
        var padding = ""
        for character in line.prefix(max(column - 1, 0)) {
            if character == "\t" {
                padding += "\t"
            } else if let first = character.unicodeScalars.first, isWide(first) {
                padding += "  "
            } else {
                padding += " "
            }
        }
        // A column past the end of the line (an error at end of line) pads with spaces.
        let missing = max(column - 1 - line.count, 0)
        return padding + String(repeating: " ", count: missing) + "^"
    }

    /// Whether terminals draw `scalar` two cells wide: the East Asian Wide and Fullwidth blocks
    /// of Unicode (UAX #11) and the emoji blocks, by range. A table-free approximation.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

/// Renders errors that are not parse errors: a command failed while running.
enum ShellDiagnostic {
    /// `FILE:LINE: error: MESSAGE` for a command from a script, `-c` or stdin, LINE being the
    /// command's first physical line; `error: MESSAGE` when `sourceName` is `nil`
    /// (interactive input).
    ///
    /// - Parameters:
    ///   - message: what went wrong.
    ///   - sourceName: a path, `-c:N` or `<stdin>`; `nil` for interactive input.
    ///   - line: the command's first physical line (ignored without a source name).
    static func rendered(_ message: String, sourceName: String?, line: Int) -> String {
        guard let sourceName else { return "error: \(message)" }
        return "\(sourceName):\(line): error: \(message)"
    }
}
