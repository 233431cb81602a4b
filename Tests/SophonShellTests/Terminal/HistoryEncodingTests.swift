import Testing

@testable import SophonShell

/// The vis(3) line encoding of libedit's history file, as measured with libedit's own
/// `H_SAVE` in a UTF-8 locale (see HistoryLibeditTests for the check against libedit).
@Suite struct HistoryEncodingTests {
    static let encodings: [(entry: String, line: String)] = [
        ("echo hi", #"echo\040hi"#),
        ("tab\there", #"tab\011here"#),
        ("one\ntwo", #"one\012two"#),
        (#"back\slash"#, #"back\134slash"#),
        (#"\040"#, #"\134040"#),
        ("cr\rx", #"cr\^Mx"#),
        ("ctl\u{1}\u{1B}\u{7F}", #"ctl\^A\^[\^?"#),
        ("nul\u{0}", #"nul\^@"#),
        ("hash#$\"'", "hash#$\"'"),
        ("trail ", #"trail\040"#),
        ("^M-x", "^M-x"),
        ("café 中文", #"café\040中文"#),
        ("e\u{301} 👍🏽 🇪🇸", "e\u{301}\\040👍🏽\\040🇪🇸"),
        ("c1\u{85}", #"c1\302\205"#),
        (#"ask """"#, #"ask\040""""#),
        ("", ""),
    ]

    @Test(arguments: encodings)
    func encodesExactly(entry: String, line: String) {
        #expect(String(decoding: HistoryEncoding.encode(entry), as: UTF8.self) == line)
    }

    @Test(arguments: encodings)
    func decodesItsOwnEncoding(entry: String, line: String) {
        #expect(HistoryEncoding.decode(Array(line.utf8)) == entry)
    }

    @Test func encodedLinesNeverContainNewlinesOrCarriageReturns() {
        let entry = String((0..<0x100).compactMap { Unicode.Scalar($0).map(Character.init) })
        let line = HistoryEncoding.encode(entry)
        #expect(!line.contains(0x0A))
        #expect(!line.contains(0x0D))
        #expect(HistoryEncoding.decode(line) == entry)
    }

    /// Forms libedit or other vis(3) writers produce that `strunvis` reads.
    static let foreignLines: [(line: String, entry: String)] = [
        (#"caf\M-C\M-)\040\M-d\M-8\M--"#, "café 中"),  // libedit in the C locale
        (#"a\^Ib"#, "a\tb"),
        (#"\M^@x"#, "\u{FFFD}x"),  // 0x80 alone is not UTF-8
        (#"a\\b"#, #"a\b"#),
        (#"\n\r\t\s\E\a\b\v\f"#, "\n\r\t \u{1B}\u{7}\u{8}\u{B}\u{C}"),
        (#"\x41\x7e"#, "A~"),
        (#"\101\60\7"#, "A0\u{7}"),
        (#"\0"#, "\u{0}"),
    ]

    @Test(arguments: foreignLines)
    func decodesOtherVisForms(line: String, entry: String) {
        #expect(HistoryEncoding.decode(Array(line.utf8)) == entry)
    }

    /// Unknown or cut-off escapes are kept as typed rather than dropped.
    static let leniencies: [(line: String, entry: String)] = [
        (#"a\"#, #"a\"#),
        (#"\q"#, #"\q"#),
        (#"\^"#, #"\^"#),
        (#"\M-"#, #"\M-"#),
        (#"\Mx"#, #"\Mx"#),
        (#"\xg"#, #"\xg"#),
    ]

    @Test(arguments: leniencies)
    func keepsUnknownEscapes(line: String, entry: String) {
        #expect(HistoryEncoding.decode(Array(line.utf8)) == entry)
    }
}
