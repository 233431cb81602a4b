/// Short excerpts of long text for messages (a reply that did not decode, a value in a
/// failure line).
public enum TextExcerpt {
    /// `text` cut to its first `limit` characters (grapheme clusters), with `…` appended when
    /// it was longer; a negative `limit` counts as 0.
    public static func prefix(_ text: String, limit: Int) -> String {
        let limit = max(limit, 0)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// `text` with each run of separator characters replaced by one space (runs at either end
    /// dropped), then cut as ``prefix(_:limit:)``.
    /// - Parameters:
    ///   - text: the text to collapse.
    ///   - limit: the most characters (grapheme clusters) kept before `…`.
    ///   - isSeparator: which characters separate words; whitespace (line breaks included) by
    ///     default.
    public static func collapsed(
        _ text: String, limit: Int, separatedBy isSeparator: (Character) -> Bool = \.isWhitespace
    ) -> String {
        prefix(text.split(whereSeparator: isSeparator).joined(separator: " "), limit: limit)
    }
}

/// Checks UTF-8 text the way Swift's `String` does (Unicode 15, Table 3-7 "Well-Formed UTF-8
/// Byte Sequences": no overlong forms, no surrogates, nothing above U+10FFFF), eight ASCII
/// bytes at a time, without building a `String`.
public enum UTF8Validator {
    /// Whether `bytes` is well-formed UTF-8 (an empty buffer is).
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xE1...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            default: return false
            }
            guard index + length <= count, second.contains(base[index + 1]) else { return false }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
