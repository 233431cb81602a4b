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
    static let equals: UInt8 = 0x3D
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
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

/// A JSON number literal as an exact decimal, for comparisons that neither round
/// (`12345678901234567890` vs `12345678901234567891`) nor overflow (`1e400`).
///
/// The value is `sign × 0.digits × 10^pointPosition`, digits without leading or trailing zeros;
/// zero has no digits and compares equal to `-0`. The one home of number comparison: `expect`
/// and tape replay both compare through ``JSONNumber/compare(_:)``.
struct DecimalLiteral: Sendable, Equatable {
    private let negative: Bool
    private let digits: [UInt8]
    private let pointPosition: Int

    /// Reads `text` when it is JSON number syntax (RFC 8259), else `nil`.
    init?(_ text: String) {
        guard JSONNumber.isValidSyntax(text) else { return nil }
        var scalars = text.unicodeScalars[...]
        let negative = scalars.first == "-"
        if negative { scalars.removeFirst() }
        var digits: [UInt8] = []
        var integerCount = 0
        var inFraction = false
        var exponentText = ""
        var inExponent = false
        for scalar in scalars {
            if inExponent {
                exponentText.unicodeScalars.append(scalar)
            } else if scalar == "." {
                inFraction = true
            } else if scalar == "e" || scalar == "E" {
                inExponent = true
            } else {
                digits.append(UInt8(scalar.value - 48))
                if !inFraction { integerCount += 1 }
            }
        }
        // Exponents beyond ±2^60 are clamped: such numbers are infinite or zero for any purpose.
        let limit = 1 << 60
        let exponent =
            Int(exponentText).map { max(-limit, min(limit, $0)) }
            ?? (exponentText.hasPrefix("-") ? -limit : exponentText.isEmpty ? 0 : limit)
        var point = integerCount + exponent
        while digits.first == 0 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.pointPosition = digits.isEmpty ? 0 : point
    }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    func compare(_ other: DecimalLiteral) -> Int {
        if negative != other.negative { return negative ? -1 : 1 }
        let magnitude = compareMagnitude(other)
        return negative ? -magnitude : magnitude
    }

    private func compareMagnitude(_ other: DecimalLiteral) -> Int {
        if digits.isEmpty || other.digits.isEmpty {
            return digits.isEmpty ? (other.digits.isEmpty ? 0 : -1) : 1
        }
        if pointPosition != other.pointPosition { return pointPosition < other.pointPosition ? -1 : 1 }
        for (a, b) in zip(digits, other.digits) where a != b { return a < b ? -1 : 1 }
        if digits.count == other.digits.count { return 0 }
        return digits.count < other.digits.count ? -1 : 1
    }
}

/// A 1-based line and column in a text, for messages that point at a UTF-8 byte offset.
public struct TextLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number; a line ends after each `\n`.
    public var line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a location from its parts.
    /// - Parameters:
    ///   - line: 1-based line.
    ///   - column: 1-based column in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location of a UTF-8 byte offset in `text`. Offsets past the end are clamped to the
    /// end; negative offsets to the start.
    /// - Parameters:
    ///   - utf8Offset: byte offset into `text.utf8`.
    ///   - text: the text the offset points into.
    public init(utf8Offset: Int, in text: String) {
        var text = text
        self = text.withUTF8 { TextLocation(utf8Offset: utf8Offset, in: $0) }
    }

    /// The location of `utf8Offset` in a UTF-8 buffer (clamped to the buffer).
    init(utf8Offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let limit = min(max(utf8Offset, 0), bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < limit {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(line: line, column: column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}
