/// Splits template text into text and tags, applying `~` whitespace control, Handlebars'
/// standalone-line rule (a block, `else`, comment or partial tag alone on its line takes the
/// line with it) and its escapes (`\{{name}}` is the text `{{name}}`, `\\{{name}}` a backslash
/// and the tag).
struct TemplateLexer {
    /// A piece of the source.
    enum Token: Equatable {
        case text(String)
        case tag(Tag)
    }

    /// A `{{...}}` tag.
    struct Tag: Equatable {
        /// `#`, `/`, `>`, `!`, `^`, `&` or `""` (a plain mustache); `else` is `"else"`.
        var sigil: String
        /// The content after the sigil, trimmed.
        var content: String
        var line: Int
        var column: Int
        var stripBefore = false
        var stripAfter = false

        var isStandaloneKind: Bool { ["#", "/", ">", "!", "^", "else"].contains(sigil) }
    }

    /// The tokens of `source`.
    /// - Throws: ``PromptError`` (`.template`) for an unclosed tag.
    static func tokens(_ source: String, file: String, lineOffset: Int, columnOffset: Int = 0)
        throws(PromptError) -> [Token]
    {
        var tokens: [Token] = []
        let chars = Array(source.unicodeScalars)
        var index = 0
        var text = String.UnicodeScalarView()
        var line = 1 + lineOffset
        var column = 1 + columnOffset
        func advance(_ count: Int) {
            for offset in 0..<count where index + offset < chars.count {
                if chars[index + offset] == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            index += count
        }
        func starts(_ prefix: String, at position: Int) -> Bool {
            let scalars = Array(prefix.unicodeScalars)
            guard position + scalars.count <= chars.count else { return false }
            return Array(chars[position..<position + scalars.count]) == scalars
        }
        while index < chars.count {
            guard starts("{{", at: index) else {
                text.append(chars[index])
                advance(1)
                continue
            }
            // Handlebars' escapes: `\{{` is text from `{{` up to the next `{{` (the backslash
            // dropped); `\\{{` is one backslash, then a tag.
            if text.last == "\\" {
                let escaped = text.count < 2 || text[text.index(text.endIndex, offsetBy: -2)] != "\\"
                text.removeLast()
                if escaped {
                    var end = index + 2
                    while end < chars.count, !starts("{{", at: end), !starts("\\{{", at: end) { end += 1 }
                    text.append(contentsOf: chars[index..<end])
                    advance(end - index)
                    continue
                }
            }
            if !text.isEmpty { tokens.append(.text(String(text))); text = .init() }
            let (tagLine, tagColumn) = (line, column)
            let triple = starts("{{{", at: index)
            var open = triple ? 3 : 2
            var stripBefore = false
            if index + open < chars.count, chars[index + open] == "~" { stripBefore = true; open += 1 }
            var body = index + open
            let longComment = starts("!--", at: body)
            let closer = longComment ? "--" + (triple ? "}}}" : "}}") : (triple ? "}}}" : "}}")
            var end = body
            while end < chars.count, !starts(closer, at: end) { end += 1 }
            guard end < chars.count else {
                throw PromptError(.template, "unclosed '{{'", file: file, line: tagLine, column: tagColumn)
            }
            var contentEnd = end
            if longComment {
                contentEnd = end
            } else if end > body, chars[end - 1] == "~" {
                contentEnd = end - 1
            }
            let stripAfter = longComment ? (end > body && chars[end - 1] == "~") : contentEnd < end
            var content = String(String.UnicodeScalarView(chars[body..<contentEnd]))
            var sigil = ""
            if triple {
                sigil = "&"
            } else if let first = content.first, "#/>!^&".contains(first) {
                sigil = String(first)
                content.removeFirst()
                body += 1
            }
            content = content.trimmingWhitespace()
            if sigil.isEmpty, content == "else" || content.hasPrefix("else ") {
                sigil = "else"
                content = String(content.dropFirst(4)).trimmingWhitespace()
            }
            if sigil == "^" && content.isEmpty { sigil = "else" }
            tokens.append(
                .tag(
                    Tag(
                        sigil: sigil, content: content, line: tagLine, column: tagColumn,
                        stripBefore: stripBefore, stripAfter: stripAfter)))
            advance(end + closer.unicodeScalars.count - index)
        }
        if !text.isEmpty { tokens.append(.text(String(text))) }
        return standalone(whitespace(tokens))
    }

    /// Applies `{{~` and `~}}`.
    static func whitespace(_ tokens: [Token]) -> [Token] {
        var tokens = tokens
        for index in tokens.indices {
            guard case .tag(let tag) = tokens[index] else { continue }
            if tag.stripBefore, index > 0, case .text(let text) = tokens[index - 1] {
                tokens[index - 1] = .text(String(text.reversed().drop { $0.isWhitespace }.reversed()))
            }
            if tag.stripAfter, index + 1 < tokens.count, case .text(let text) = tokens[index + 1] {
                tokens[index + 1] = .text(String(text.drop { $0.isWhitespace }))
            }
        }
        return tokens
    }

    /// Removes the line of a block, `else`, comment or partial tag standing alone on it.
    static func standalone(_ tokens: [Token]) -> [Token] {
        var tokens = tokens
        for index in tokens.indices {
            guard case .tag(let tag) = tokens[index], tag.isStandaloneKind else { continue }
            var before = ""
            var beforeOK = index == 0
            if index > 0, case .text(let text) = tokens[index - 1] {
                let tail =
                    text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
                if tail.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    beforeOK = text.contains("\n") || index == 1
                    before = tail
                }
            }
            guard beforeOK else { continue }
            var afterOK = index == tokens.count - 1
            var afterText = ""
            if index + 1 < tokens.count, case .text(let text) = tokens[index + 1] {
                afterText = text
                let head = text.prefix { $0 == " " || $0 == "\t" }
                let rest = text.dropFirst(head.count)
                afterOK =
                    rest.isEmpty
                    ? index + 1 == tokens.count - 1 : (rest.first == "\n" || rest.hasPrefix("\r\n"))
            }
            guard afterOK else { continue }
            if index > 0, case .text(let text) = tokens[index - 1] {
                tokens[index - 1] = .text(String(text.dropLast(before.count)))
            }
            if index + 1 < tokens.count {
                var rest = Substring(afterText).drop { $0 == " " || $0 == "\t" }
                if rest.hasPrefix("\r\n") {
                    rest = rest.dropFirst(1)
                } else if rest.first == "\n" {
                    rest = rest.dropFirst()
                }
                tokens[index + 1] = .text(String(rest))
            }
        }
        return tokens
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace and newlines.
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
