/// The word Tab completes, read with the shell's quoting rules (docs/language.md, "Words and
/// quotes"), and the quoting of what completion inserts, so the parser reads back the same
/// name: `source trip<Tab>` inserts `'trip plan.sophon' `, and `source "tri<Tab>` completes
/// inside the opened double quote.
struct CompletionWord: Equatable {
    /// The word as typed before the cursor (quotes included): what completion replaces.
    var typed: String
    /// The word's value: quotes removed, escapes in double quotes applied.
    var value: String
    /// The quote still open at the cursor (`'` or `"`), or nil.
    var openQuote: Character?
    /// The values of the earlier words of the line.
    var earlier: [String]

    /// Reads the text before the cursor.
    /// - Parameter textBeforeCursor: the line up to the cursor.
    init(textBeforeCursor: String) {
        var words: [String] = []
        var typed = ""
        var value = ""
        var quote: Character?
        var escaping = false
        var inWord = false
        for character in textBeforeCursor {
            if escaping {
                escaping = false
                typed.append(character)
                value.append(character)
                continue
            }
            switch (quote, character) {
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(value) }
                typed = ""
                value = ""
                inWord = false
                continue
            case (nil, "'"), (nil, "\""):
                quote = character
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("\"", "\\"):
                escaping = true
            default:
                value.append(character)
            }
            typed.append(character)
            inWord = true
        }
        self.typed = typed
        self.value = value
        self.openQuote = quote
        self.earlier = words
    }

    /// `text` as it should be inserted for this word: bare when it needs no quoting and no
    /// quote is open; otherwise quoted in the open quote (single quotes when none is open),
    /// with a leading `@` (a file attachment) left outside the quotes.
    /// - Parameters:
    ///   - text: a candidate or a common prefix, as a value.
    ///   - closing: whether to close the quote (a whole file name, not a folder or a prefix).
    func inserting(_ text: String, closing: Bool) -> String {
        guard openQuote != nil || !Self.isBare(text) else { return text }
        var head = ""
        var body = Substring(text)
        if openQuote == nil || typed.hasPrefix("@"), body.hasPrefix("@") {
            head = "@"
            body = body.dropFirst()
        }
        let quote = openQuote ?? "'"
        var quoted = String(quote)
        for character in body {
            switch (quote, character) {
            case ("'", "'"): quoted += "'\"'\"'"
            case ("\"", "\""), ("\"", "\\"), ("\"", "$"): quoted += "\\" + String(character)
            default: quoted.append(character)
            }
        }
        if closing { quoted.append(quote) }
        return head + quoted
    }

    /// Whether `text` reads back as itself as a bare word: letters, digits and `-_./~+,:=%@^`,
    /// not starting with `#`.
    static func isBare(_ text: String) -> Bool {
        text.allSatisfy { character in
            character.isLetter || character.isNumber || "-_./~+,:=%@^".contains(character)
        }
    }
}
