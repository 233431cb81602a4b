import SophonCore

/// The man page `sophon.1` (roff, `man` macros) and the command table of docs/commands.md,
/// generated from the command table (each command's declared options included), the
/// command-line flags of ``HelpText/flags`` and the environment rows of ``HelpText``, so they never drift; written by
/// scripts/gen-docs (`sophon --man`, `sophon --commands-markdown`).
enum ManPage {
    /// The whole man page.
    static func text(_ registry: PluginRegistry) -> String {
        var page = """
            .TH SOPHON 1 "" "\(escape(HelpText.version))" "User Commands"
            .SH NAME
            sophon \\- a scripting shell for the Google Gemini API
            .SH SYNOPSIS
            .B sophon
            [\\fIFLAGS\\fR] [\\fIFILE\\fR...]
            .br
            .B sophon
            [\\fIFLAGS\\fR] \\fB\\-c\\fR \\fILINE\\fR...
            .br
            .B sophon
            [\\fIFLAGS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]
            .SH DESCRIPTION
            Without arguments, \\fBsophon\\fR starts an interactive shell on a terminal, or reads
            commands from standard input. Given files, it runs them as scripts; given \\fB\\-c\\fR,
            it runs the lines; given a command name, it runs that one command. Results go to
            standard output; errors, warnings and logs to standard error. The full reference is
            docs/commands.md and docs/language.md in the source repository.
            .SH OPTIONS

            """
        for flag in HelpText.flags {
            page += ".TP\n.B \(escape(flag.synopsis))\n\(escape(flag.help))\n"
        }
        page += ".SH COMMANDS\n"
        for plugin in registry.plugins {
            page += ".SS \(escape(plugin.name))\n"
            for command in plugin.commands {
                page += ".TP\n.B \(escape(command.usage))\n\(escape(command.summary))\n"
                guard !command.options.isEmpty else { continue }
                page += ".RS\n"
                for option in command.options {
                    page += ".TP\n.B \(escape(option.synopsis))\n\(escape(option.help))\n"
                }
                page += ".RE\n"
            }
        }
        page += ".SH SETTINGS\nChanged with \\fBset\\fR \\fINAME VALUE\\fR, printed with \\fBshow\\fR.\n"
        for row in SettingsReference.rows(registry) {
            page += ".TP\n.B \(escape(row.name))\n" + (row.values.isEmpty ? "" : escape(row.values) + "\n")
        }
        page += ".SH ENVIRONMENT\n"
        for (name, text) in rows(of: HelpText.environmentAndFiles, section: "environment:") {
            page += ".TP\n.B \(escape(name))\n\(escape(text))\n"
        }
        page += """
            .SH FILES
            With \\fBSOPHON_HOME\\fR set, all of these are in that one folder instead.

            """
        for (name, text) in rows(of: HelpText.environmentAndFiles, section: "files:") {
            page += ".TP\n.I \(escape(name))\n\(escape(text))\n"
        }
        page += """
            .SH EXIT STATUS
            0 when every command succeeded, 1 when one failed, 2 for a usage error.
            .SH SEE ALSO
            \\fBsophon \\-\\-help\\fR, \\fBhelp\\fR \\fICOMMAND\\fR inside the shell, and
            \\fBsophon \\-\\-completions\\fR \\fBbash\\fR|\\fBzsh\\fR|\\fBfish\\fR.

            """
        return page
    }

    /// The Markdown table of every command (usage, plugin, summary) for docs/commands.md.
    static func commandsMarkdown(_ registry: PluginRegistry) -> String {
        var text = "| Command | Plugin | What it does |\n|---------|--------|--------------|\n"
        for plugin in registry.plugins {
            for command in plugin.commands {
                let usage = command.usage.replacingOccurrences(of: "|", with: "\\|")
                let summary = command.summary.replacingOccurrences(of: "|", with: "\\|")
                text += "| `\(usage)` | \(plugin.name) | \(summary) |\n"
            }
        }
        return text
    }

    /// The `  NAME   text` rows under the heading line `section` of a help text, up to the next
    /// blank line; a row's name and text are separated by two or more spaces.
    static func rows(of text: String, section: String) -> [(String, String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == section }) else { return [] }
        var rows: [(String, String)] = []
        for line in lines[(start + 1)...] {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.isEmpty { break }
            guard let gap = trimmed.firstRange(of: "  ") else {
                rows.append((String(trimmed), ""))
                continue
            }
            let name = String(trimmed[..<gap.lowerBound])
            let rest = String(trimmed[gap.upperBound...].drop(while: { $0 == " " }))
            rows.append((name, rest))
        }
        return rows
    }

    /// `text` safe in a roff text line: backslashes and minus signs escaped, non-ASCII
    /// characters as `\[uXXXX]`, a leading `.` or `'` guarded.
    static func escape(_ text: String) -> String {
        let result = escaper.escape(text)
        return result.hasPrefix(".") || result.hasPrefix("'") ? "\\&" + result : result
    }

    private static let escaper = TextEscaper(["\\": "\\e", "-": "\\-"]) { scalar in
        scalar.value > 0x7F ? "\\[u" + hex(scalar.value) + "]" : nil
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The settings as `help set`, `help show` and the man page list them, generated from the one
/// settings table (``PluginRegistry/settings``): every name, with the values Tab offers after
/// `set NAME` when there are some.
enum SettingsReference {
    /// The commands whose `help` lists the settings.
    static let commands: Set<String> = ["set", "show"]

    /// `(name, values)` for every setting, in `show` order; values joined by ` | `, empty when
    /// the setting takes free text or a number.
    static func rows(_ registry: PluginRegistry) -> [(name: String, values: String)] {
        registry.settings.map { ($0.name, $0.values.joined(separator: " | ")) }
    }

    /// The `settings:` rows `help COMMAND` adds for `set` and `show`; empty for other commands.
    static func helpRows(for command: String, _ registry: PluginRegistry) -> String {
        guard commands.contains(command) else { return "" }
        let rows = rows(registry)
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        return "\nsettings:"
            + rows.map { row in
                let line =
                    "\n  " + row.name.padding(toLength: width, withPad: " ", startingAt: 0) + row.values
                return String(line.reversed().drop(while: { $0 == " " }).reversed())
            }.joined()
    }
}
