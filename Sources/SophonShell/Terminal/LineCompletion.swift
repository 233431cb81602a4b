import CEdit

/// Supplies Tab completions to the line editor.
///
/// - Parameters:
///   - line: the whole line being edited.
///   - cursor: the number of `Character`s before the cursor (`line.prefix(cursor)` is the
///     text before it).
/// - Returns: candidates for the word before the cursor, read with the shell's quoting
///   (``CompletionWord``: `'trip pl` is the word `trip pl`). Each candidate is the whole
///   word's value, unquoted, e.g. `save` for `sav`, or `@notes/today.txt` for `@notes/t`;
///   a folder ends with `/` (no space is added after it). The editor quotes what it inserts.
///   Return `[]` for no completion.
///
/// Called synchronously inside `readLine`, on the thread that called it.
typealias LineCompleter = (_ line: String, _ cursor: Int) -> [String]

/// What Tab does with a list of candidates: the editor-independent half of completion,
/// unit-tested without a terminal.
enum LineCompletion {
    /// What the editor should do.
    enum Action: Equatable {
        /// No candidate: ring the bell.
        case none
        /// Delete `length` Unicode scalars before the cursor (the word) and insert `text`.
        case replaceWord(length: Int, text: String)
        /// Several candidates and nothing more to insert: show them below the line.
        case list([String])
    }

    /// The word Tab completes: the text after the last space or tab.
    /// - Parameter textBeforeCursor: the line up to the cursor.
    static func word(before textBeforeCursor: String) -> Substring {
        guard let blank = textBeforeCursor.lastIndex(where: { $0 == " " || $0 == "\t" }) else {
            return textBeforeCursor[...]
        }
        return textBeforeCursor[textBeforeCursor.index(after: blank)...]
    }

    /// Decides what Tab does, like readline: a single candidate replaces the word and is
    /// followed by a space (not after a `/` or a `=`); several candidates insert their longest
    /// common prefix when that extends the word, and are listed otherwise. What is inserted
    /// is quoted so the parser reads back the candidate (``CompletionWord/inserting(_:closing:)``):
    /// a name with a blank or `$` gets single quotes, and a word typed inside an open quote
    /// is completed in that quote (closed after a whole name, left open after a folder).
    /// - Parameters:
    ///   - textBeforeCursor: the line up to the cursor.
    ///   - candidates: from the ``LineCompleter``; duplicates are dropped, order is kept.
    static func plan(textBeforeCursor: String, candidates: [String]) -> Action {
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0).inserted }
        guard let first = unique.first else { return .none }
        let word = CompletionWord(textBeforeCursor: textBeforeCursor)
        let length = word.typed.unicodeScalars.count
        if unique.count == 1 {
            // A folder (`notes/`) or a key awaiting its value (`attempts=`) goes on: no space.
            let whole = !first.hasSuffix("/") && !first.hasSuffix("=")
            return .replaceWord(
                length: length, text: word.inserting(first, closing: whole) + (whole ? " " : ""))
        }
        let prefix = commonPrefix(unique)
        if prefix.count > word.value.count, prefix.hasPrefix(word.value) {
            return .replaceWord(length: length, text: word.inserting(prefix, closing: false))
        }
        return .list(unique)
    }

    /// The longest common prefix, by `Character`.
    static func commonPrefix(_ strings: [String]) -> String {
        guard let first = strings.first else { return "" }
        var prefix = Array(first)
        for string in strings.dropFirst() {
            var matched = 0
            for character in string {
                guard matched < prefix.count, prefix[matched] == character else { break }
                matched += 1
            }
            prefix.removeSubrange(matched...)
        }
        return String(prefix)
    }

    /// Lays out items in columns, down then across (as `ls` does), for a terminal `width`
    /// columns wide; each row ends with `\n`, without trailing blanks.
    /// - Parameters:
    ///   - items: the candidates.
    ///   - width: the terminal width in columns (at least one column is used).
    static func columns(_ items: [String], width: Int) -> String {
        guard !items.isEmpty else { return "" }
        let widths = items.map(displayWidth)
        let columnWidth = (widths.max() ?? 0) + 2
        let columnCount = max(1, width / max(1, columnWidth))
        let rowCount = (items.count + columnCount - 1) / columnCount
        var text = ""
        for row in 0..<rowCount {
            var line = ""
            for column in 0..<columnCount {
                let index = column * rowCount + row
                guard index < items.count else { break }
                line += items[index]
                let nextIndex = (column + 1) * rowCount + row
                if column + 1 < columnCount, nextIndex < items.count {
                    line += String(repeating: " ", count: columnWidth - widths[index])
                }
            }
            text += line + "\n"
        }
        return text
    }

    /// Terminal columns taken by `text`: 2 for East Asian wide and emoji characters, 1 for
    /// others (an approximation of `wcwidth`, enough for laying out columns).
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { total, character in
            total + (character.unicodeScalars.contains(where: isWide) ? 2 : 1)
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The UTF-8 text of the line editor's buffer from `start` up to `end` (libedit's
    /// `LineInfo` pointers); invalid bytes are replaced.
    static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        let count = max(0, start.distance(to: end))
        return start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}

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

/// Tab in ``EditLineReader``: asks the ``LineCompleter`` for the word before the cursor and
/// applies ``LineCompletion/plan(textBeforeCursor:candidates:)`` to libedit's line.
enum EditorCompletion {
    /// Completes the word before the cursor of `editor`.
    /// - Returns: what libedit does next (`CC_REFRESH`, `CC_REDISPLAY` after a list, or
    ///   `CC_REFRESH_BEEP` when nothing completes).
    static func complete(_ editor: OpaquePointer, with completer: LineCompleter?) -> UInt8 {
        guard let completer, let info = el_line(editor), let buffer = info.pointee.buffer,
            let cursor = info.pointee.cursor, let end = info.pointee.lastchar
        else { return UInt8(CC_REFRESH_BEEP) }
        let before = LineCompletion.text(from: buffer, to: cursor)
        let after = LineCompletion.text(from: cursor, to: end)
        let candidates = completer(before + after, before.count)
        switch LineCompletion.plan(textBeforeCursor: before, candidates: candidates) {
        case .none:
            return UInt8(CC_REFRESH_BEEP)
        case .replaceWord(let length, let text):
            if length > 0 { el_deletestr(editor, Int32(length)) }
            return el_insertstr(editor, text) == 0 ? UInt8(CC_REFRESH) : UInt8(CC_REFRESH_BEEP)
        case .list(let items):
            let width = Int(cedit_terminal_columns(editor, 80))
            cedit_write_output(editor, "\n" + LineCompletion.columns(items, width: width))
            return UInt8(CC_REDISPLAY)
        }
    }
}
