/// Byte values the JSON scanners compare against.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let dollar: UInt8 = 0x24
    static let apostrophe: UInt8 = 0x27
    static let asterisk: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let underscore: UInt8 = 0x5F
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == carriageReturn || byte == tab
    }

    /// Whether `byte` can start an unquoted key: a letter, digit, `_`, `$`, `@` or the first
    /// byte of a non-ASCII character (curly quotes are checked apart).
    static func isKeyStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == underscore || byte == dollar || byte == at || byte >= 0x80
    }

    /// Whether `byte` can continue an unquoted key: a key start, `-` or `.`.
    static func isKeyCharacter(_ byte: UInt8) -> Bool {
        isKeyStart(byte) || byte == minus || byte == dot
    }

    /// What a typographic quote at `offset` is, by its third UTF-8 byte (`E2 80 xx`):
    /// 0x98 `‘`, 0x99 `’`, 0x9C `“`, 0x9D `”`; `nil` for anything else.
    static func curlyQuote(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ end: Int) -> UInt8? {
        guard offset + 2 < end, bytes[offset] == 0xE2, bytes[offset + 1] == 0x80 else { return nil }
        let last = bytes[offset + 2]
        return last == 0x98 || last == 0x99 || last == 0x9C || last == 0x9D ? last : nil
    }

    /// Whether `...` or `…` (U+2026) starts at `offset`.
    static func isEllipsis(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ end: Int) -> Bool {
        guard offset + 2 < end else { return false }
        if bytes[offset] == dot { return bytes[offset + 1] == dot && bytes[offset + 2] == dot }
        return bytes[offset] == 0xE2 && bytes[offset + 1] == 0x80 && bytes[offset + 2] == 0xA6
    }
}

/// Four uppercase hex digits of `value` (for `U+000A`).
func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
