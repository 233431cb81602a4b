import SophonCore

/// `let NAME = REST`, parsed by the rules of docs/language.md:
/// 1. REST as typed, less a trailing `#` comment, is valid JSON: that value, no expansion
///    (decided while parsing, so `let s = "a\u0041"` is JSON and not a bad shell escape);
/// 2. REST is one `"""` block: its value (escapes and `$` applied) as JSON when it is valid
///    JSON, else as a string;
/// 3. otherwise words: a single word that is exactly one unquoted expansion copies that value
///    with its type; anything else is one string, the words joined by one space.
struct LetAssignment: Sendable, Hashable {
    /// The variable name, `[A-Za-z_][A-Za-z0-9_]*`.
    var name: String
    /// How the value is made.
    var value: Value

    /// Creates an assignment.
    init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    /// The right side of a `let`, by rule.
    enum Value: Sendable, Hashable {
        /// Rule 1: REST was valid JSON.
        case json(JSONValue)
        /// Rule 2: REST was one `"""` block.
        case block(ShellWord)
        /// Rule 3: REST as words.
        case words([ShellWord])
    }

    /// The value to store.
    ///
    /// - Parameters:
    ///   - expander: resolves references (rules 2 and 3).
    ///   - parseJSON: strict JSON parsing of a text, `nil` when it is not valid JSON (rule 2).
    /// - Throws: ``ShellExpansionError`` when a reference cannot be resolved.
    func evaluate(
        expander: ShellExpander, parseJSON: (String) -> JSONValue?
    ) throws(ShellExpansionError) -> JSONValue {
        switch value {
        case .json(let json):
            return json
        case .block(let word):
            let text = try expander.text(of: word)
            return parseJSON(text) ?? .string(text)
        case .words(let words):
            if words.count == 1, let reference = words[0].singleExpansion {
                return try expander.value(of: reference)
            }
            return .string(try expander.text(of: words))
        }
    }

    /// REST as typed, less a trailing comment: cut at the first `#` that is outside a JSON
    /// string and starts a word (at the start or after a blank), then trimmed of blanks.
    static func restWithoutComment(_ rest: String) -> String {
        var kept = String.UnicodeScalarView()
        var inString = false
        var escaped = false
        var previous: Unicode.Scalar?
        for scalar in rest.unicodeScalars {
            if inString {
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                }
            } else if scalar == "\"" {
                inString = true
            } else if scalar == "#", previous == nil || ShellLexer.isBlank(previous) {
                break
            }
            kept.append(scalar)
            previous = scalar
        }
        while let first = kept.first, ShellLexer.isBlank(first) { kept.removeFirst() }
        while let last = kept.last, ShellLexer.isBlank(last) { kept.removeLast() }
        return String(kept)
    }
}
