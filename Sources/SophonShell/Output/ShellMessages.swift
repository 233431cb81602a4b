import SophonCore

/// The wording the shell shares across commands: the prefixes of notices on stderr, usage
/// lines, "did you mean" suggestions and the messages of the command line and interrupts.
/// Command-specific messages stay with their command; their shape comes from here.
enum ShellMessages {
    /// `note: TEXT`: something the user may want to know; the command succeeded.
    static func note(_ text: String) -> String { "note: " + text }
    /// `warning: TEXT`: something went wrong that does not fail the command.
    static func warning(_ text: String) -> String { "warning: " + text }
    /// The warning for a property of the type syntax whose type is a quoted type name (a JSON
    /// Schema habit): `warning: schema: title: "string" is an enum of the one value "string";
    /// for a type write title: string (no quotes), or give JSON Schema as schema @file.json`.
    /// `fileForm` is how the command takes a schema file (`schema @file.json`).
    static func quotedTypeName(command: String, written: String, fix: String, value: String, fileForm: String)
        -> String
    {
        warning(
            "\(command): \(written) is an enum of the one value \"\(value)\"; for a type write \(fix) "
                + "(no quotes), or give JSON Schema as \(fileForm)")
    }
    /// The warning for `llm`'s concise syntax written like the type syntax without its braces
    /// (`schema title: string, year?: integer`): `warning: schema: 'title: string' reads as a
    /// field title described as "string" (llm's concise syntax); for types write { title:
    /// string, year?: integer } (the type syntax, in braces)`. `braced` is that form.
    static func conciseTypeDescription(command: String, field: String, reading: String, braced: String)
        -> String
    {
        warning(
            "\(command): '\(field)' reads as \(reading) (llm's concise syntax); for types write \(braced) "
                + "(the type syntax, in braces)")
    }
    /// `repair: TEXT`: a change made to malformed JSON to read it.
    static func repair(_ text: String) -> String { "repair: " + text }
    /// `coerced: TEXT`: a value changed to fit the schema.
    static func coerced(_ text: String) -> String { "coerced: " + text }

    /// `saved image/png, 412 KB: PATH`: reply media written to the media folder (KB = 1024
    /// bytes, rounded, at least 1 for a non-empty file).
    static func savedMedia(mimeType: String, bytes: Int, path: String) -> String {
        let kilobytes = bytes == 0 ? 0 : max(1, (bytes + 512) / 1024)
        return "saved \(mimeType), \(kilobytes) KB: \(path)"
    }

    /// `usage: LINE`, then `hint` in parentheses.
    static func usage(_ line: String, hint: String? = nil) -> String {
        "usage: \(line)" + (hint.map { " (\($0))" } ?? "")
    }

    /// A name the user gave, as an error names it: cut at 64 characters with `…`, so a long
    /// "name" (a whole line of data run as a script, a 10 MB word) is not echoed whole.
    static func shown(_ name: String) -> String {
        name.count > 64 ? name.prefix(64) + "…" : name
    }

    /// `'ID' is not a valid model ID`, the ID ``shown(_:)`` as typed.
    static func invalidModelID(_ name: String) -> String {
        "'\(shown(name))' is not a valid model ID"
    }

    /// ` (did you mean 'NAME'?)` after an unknown name, or nothing without a suggestion.
    static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `unknown option 'OPTION'`, with the closest of `options` suggested.
    static func unknownOption(_ option: String, among options: [String]) -> String {
        let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
        return "unknown option '\(option)'" + didYouMean(Suggestions.closest(to: name, in: options).first)
    }

    /// A line that filled the terminal's line buffer (the kernel drops what does not fit).
    static func terminalLineCut(limit: Int) -> String {
        warning(
            "this line filled the terminal's \(limit)-byte line limit and may have been cut, so it was not run; "
                + "put long text in a file (@FILE) or a pipe")
    }

    /// What a cancelled command reports (Ctrl-C).
    static let interrupted = "interrupted"

    /// A command-line error: `sophon: MESSAGE`.
    static func commandLine(_ message: String) -> String { "sophon: " + message }
    /// The hint after an unknown or malformed option.
    static let seeHelp = "see 'sophon --help'"
}

/// "Did you mean" suggestions by edit distance with transpositions (SophonCore's
/// ``EditDistance``), by the rule of docs/language.md ("Errors and locations").
enum Suggestions {
    /// The candidates closest to `word` (distance at most 2, or at most 1 when `word` has 4
    /// characters or fewer), closest first, ties in the candidates' order.
    static func closest(to word: String, in candidates: [String]) -> [String] {
        EditDistance.suggestions(for: word, among: candidates)
    }
}
