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

extension UTF8Validator {
    /// Where the first sequence of `bytes` that is not well-formed UTF-8 starts (1-based line,
    /// lines ending at `\n`; 1-based column in Unicode scalars), `nil` when all of it is well
    /// formed (an empty sequence is). The one rule by which a script line and a prompt file
    /// report invalid UTF-8 at its line and column (docs/language.md, docs/prompts.md).
    public static func firstInvalid(in bytes: some Sequence<UInt8>) -> TextLocation? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var place = TextLocation(line: 1, column: 1)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if Unicode.UTF8.decode(encoded) == "\n" {
                    place.line += 1
                    place.column = 1
                } else {
                    place.column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return place
            }
        }
    }
}
