/// Finds fenced code blocks (CommonMark style) in model text, in one pass over its lines.
///
/// A fence is a line whose first non-blank characters are at least three backticks or tildes;
/// the rest of the opening line (the language tag: `json`, `JSON`, `js`, nothing, ...) is
/// ignored. A block ends at a line holding only a fence of the same character at least as
/// long, or at the end of the text when it is never closed (a cut-off reply). Fences inside a
/// JSON string cannot occur at the start of a line, since JSON strings hold no raw newlines.
enum MarkdownFenceScanner {
    /// One fenced block.
    struct Block: Equatable {
        /// UTF-8 offset of the opening fence's first backtick or tilde.
        var fenceOffset: Int
        /// UTF-8 offsets of the lines between the fences.
        var content: Range<Int>
        /// UTF-8 offsets of the whole block, fences included.
        var extent: Range<Int>
        /// The language tag, lowercased (`json`, `python`, empty when none).
        var tag: String

        /// Whether the tag names JSON or a language whose literals are JSON-like (`json`,
        /// `jsonc`, `json5`, `jsonl`, `ndjson`, `js`, `javascript`, `ts`, `text`) or is absent.
        /// Blocks in other languages (`python`, `bash`) hold code, searched only as a last resort.
        var mayHoldJSON: Bool {
            tag.isEmpty || tag.hasPrefix("json")
                || ["ndjson", "js", "javascript", "ts", "typescript", "text", "txt", "plaintext"].contains(
                    tag)
        }
    }

    /// Every fenced block in `bytes`, in order; `release`, when given, is called after each
    /// MiB read (``LLMJSONExtractor/extract(fromUTF8:releasingInput:)``).
    static func blocks(in bytes: UnsafeBufferPointer<UInt8>, releasing release: (() -> Void)? = nil)
        -> [Block]
    {
        var blocks: [Block] = []
        var nextRelease = 1 << 20
        var open: (character: UInt8, length: Int, offset: Int, contentStart: Int, tag: String)?
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != ASCII.newline { lineEnd += 1 }
            let next = min(lineEnd + 1, bytes.count)
            var cursor = lineStart
            while cursor < lineEnd, bytes[cursor] == ASCII.space || bytes[cursor] == ASCII.tab { cursor += 1 }
            let fenceStart = cursor
            let character = cursor < lineEnd ? bytes[cursor] : 0
            if character == UInt8(ascii: "`") || character == UInt8(ascii: "~") {
                while cursor < lineEnd, bytes[cursor] == character { cursor += 1 }
                let length = cursor - fenceStart
                if length >= 3 {
                    let restIsBlank = isBlank(bytes, cursor..<lineEnd)
                    if let fence = open {
                        if character == fence.character, length >= fence.length, restIsBlank {
                            blocks.append(
                                Block(
                                    fenceOffset: fence.offset, content: fence.contentStart..<lineStart,
                                    extent: fence.offset..<next, tag: fence.tag))
                            open = nil
                        }
                    } else if character == UInt8(ascii: "~")
                        || !contains(bytes, UInt8(ascii: "`"), cursor..<lineEnd)
                    {
                        open = (character, length, fenceStart, next, tag(bytes, cursor..<lineEnd))
                    }
                }
            }
            lineStart = next
            if lineStart >= nextRelease, let release {
                release()
                nextRelease = lineStart + (1 << 20)
            }
        }
        if let fence = open {
            blocks.append(
                Block(
                    fenceOffset: fence.offset, content: fence.contentStart..<bytes.count,
                    extent: fence.offset..<bytes.count, tag: fence.tag))
        }
        return blocks
    }

    /// The first word of the opening fence's info string, lowercased.
    private static func tag(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let word = range.drop { ASCII.isWhitespace(bytes[$0]) }.prefix { !ASCII.isWhitespace(bytes[$0]) }
        return String(decoding: word.map { bytes[$0] }, as: UTF8.self).lowercased()
    }

    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.allSatisfy { ASCII.isWhitespace(bytes[$0]) }
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ byte: UInt8, _ range: Range<Int>)
        -> Bool
    {
        range.contains { bytes[$0] == byte }
    }
}
