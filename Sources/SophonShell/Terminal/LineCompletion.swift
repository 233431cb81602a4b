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
    /// followed by a space (not after a `/`); several candidates insert their longest
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
            let whole = !first.hasSuffix("/")
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
