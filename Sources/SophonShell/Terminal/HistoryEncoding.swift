/// The line encoding of libedit's history file (`_HiStOrY_V2_`): each entry is one line,
/// encoded with `strvis(3)` and `VIS_WHITE`, decoded by `H_LOAD` with `strunvis(3)`.
///
/// What libedit 3.1 (Debian 12, UTF-8 locale) writes, measured with `H_SAVE` on this
/// machine and reproduced byte for byte by ``encode(_:)``:
/// space `\040`, tab `\011`, newline `\012`, backslash `\134`, other C0 controls `\^A`...
/// (`\^[` for escape, `\^M` for carriage return), delete `\^?`; printable ASCII and
/// non-ASCII text stay as they are (UTF-8). Two deliberate differences keep entries
/// intact where libedit would not: the C1 controls U+0080...U+009F are written as the
/// octal escapes of their UTF-8 bytes (libedit writes a single meta byte, which is not
/// UTF-8), and every other scalar is kept as UTF-8.
///
/// ``decode(_:)`` reads everything `strunvis` reads: octal `\ooo` (one to three digits),
/// `\^X`, `\M-X`, `\M^X`, `\\`, the C-style `\n \r \t \b \a \v \f \s \E \0`, hex `\xHH`;
/// an unknown or cut-off escape is kept as typed.
enum HistoryEncoding {
    /// The first line of every history file, without its newline.
    static let header = "_HiStOrY_V2_"

    /// Encodes one entry as one line of the history file (no newline).
    /// - Parameter entry: the command as entered; may contain newlines.
    /// - Returns: ASCII escapes and UTF-8 text, never containing a newline.
    static func encode(_ entry: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entry.utf8.count + 8)
        for scalar in entry.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x20, 0x09, 0x0A, 0x5C:
                appendOctal(UInt8(value), to: &out)
            case 0x00..<0x20:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(value) + 0x40]
            case 0x7F:
                out += Array("\\^?".utf8)
            case 0x80..<0xA0:
                for byte in String(scalar).utf8 { appendOctal(byte, to: &out) }
            default:
                out += String(scalar).utf8
            }
        }
        return out
    }

    /// Decodes one line of the history file (without its newline) back to the entry.
    /// - Parameter line: the encoded bytes; invalid UTF-8 after decoding becomes U+FFFD.
    /// - Returns: the entry.
    static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> String {
        let bytes = Array(line)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "\\") || index + 1 >= bytes.count {
                out.append(byte)
                index += 1
                continue
            }
            if let (decoded, length) = decodeEscape(bytes, at: index + 1) {
                out.append(decoded)
                index += 1 + length
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendOctal(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "0") + ((byte >> 6) & 0x3))
        out.append(UInt8(ascii: "0") + ((byte >> 3) & 0x7))
        out.append(UInt8(ascii: "0") + (byte & 0x7))
    }

    /// Decodes the escape whose first byte after the backslash is at `start`.
    /// - Returns: the byte and how many bytes after the backslash it used, or nil when
    ///   the escape is unknown or cut off.
    private static func decodeEscape(_ bytes: [UInt8], at start: Int) -> (UInt8, Int)? {
        let first = bytes[start]
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = 0
            var length = 0
            while length < 3, start + length < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[start + length])
            {
                value = value * 8 + Int(bytes[start + length] - UInt8(ascii: "0"))
                length += 1
            }
            return (UInt8(truncatingIfNeeded: value), length)
        case UInt8(ascii: "^"):
            guard start + 1 < bytes.count else { return nil }
            return (control(bytes[start + 1]), 2)
        case UInt8(ascii: "M"):
            guard start + 2 < bytes.count else { return nil }
            switch bytes[start + 1] {
            case UInt8(ascii: "-"): return (bytes[start + 2] | 0x80, 3)
            case UInt8(ascii: "^"): return (control(bytes[start + 2]) | 0x80, 3)
            default: return nil
            }
        case UInt8(ascii: "x"):
            var value = 0
            var length = 0
            while length < 2, start + 1 + length < bytes.count,
                let digit = hexValue(bytes[start + 1 + length])
            {
                value = value * 16 + digit
                length += 1
            }
            return length == 0 ? nil : (UInt8(value), 1 + length)
        default:
            guard let simple = cStyle[first] else { return nil }
            return (simple, 1)
        }
    }

    private static let cStyle: [UInt8: UInt8] = [
        UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
        UInt8(ascii: "t"): 0x09, UInt8(ascii: "b"): 0x08, UInt8(ascii: "a"): 0x07,
        UInt8(ascii: "v"): 0x0B, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "s"): 0x20,
        UInt8(ascii: "E"): 0x1B,
    ]

    private static func control(_ byte: UInt8) -> UInt8 {
        byte == UInt8(ascii: "?") ? 0x7F : byte & 0x1F
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
