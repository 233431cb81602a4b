import Testing

@testable import SophonCore

/// The streaming pretty-printer prints, from compact text, the bytes `prettyText` prints from
/// the tree; and a lazy value prints without being parsed.
@Suite struct JSONPrettyPrinterTests {
    /// Pretty text of `compact`, in chunks of `chunkSize` bytes, each checked to be whole UTF-8.
    static func pretty(_ compact: String, chunkSize: Int = 1 << 20) -> String {
        var compact = compact
        var output: [UInt8] = []
        var printer = JSONPrettyPrinter()
        printer.chunkSize = chunkSize
        compact.withUTF8 { bytes in
            printer.write(bytes) { chunk in
                #expect(Array(chunk).withUnsafeBufferPointer(UTF8Validator.isValid))
                output.append(contentsOf: chunk)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test(arguments: [
        "null", "true", "-1.5e3", #""a\"b\\c\n""#, "[]", "{}", "[[]]", #"{"a":{}}"#,
        #"{"a":[1,{"b":null,"c":"x,y:[z]"}],"d":"é😀","":[[],{}]}"#,
        #"[1,[2,[3,[4]]],"\u0001",{"k\"":"v"}]"#,
    ])
    func matchesPrettyTextOfTheTree(compact: String) throws {
        let tree = try JSONValue(parsing: compact)
        #expect(tree.compactText == compact)
        #expect(Self.pretty(compact) == tree.prettyText)
    }

    /// Chunks of 4 KiB cut long strings of multi-byte characters: no chunk ends mid-character
    /// and the text is unchanged.
    @Test func smallChunksKeepCharactersWhole() throws {
        let long = String(repeating: "a€😀é", count: 3_000)
        let compact = JSONValue.array([.string(long), .object([JSONMember(long, .integer(1))])]).compactText
        #expect(Self.pretty(compact, chunkSize: 4096) == (try JSONValue(parsing: compact)).prettyText)
    }

    /// Every value of the extractor corpus prints the same both ways.
    @Test func everyCorpusValuePrintsAsItsTree() throws {
        var checked = 0
        for item in LLMJSONExtractorCorpusTests.corpus.cases {
            guard let found = try? LLMJSONExtractor().extract(from: item.input) else { continue }
            for value in found {
                #expect(Self.pretty(value.text, chunkSize: 4096) == value.value.prettyText, "\(item)")
                checked += 1
            }
        }
        #expect(checked >= 250)
    }

    @Test func lazyValuePrintsWithoutParsing() {
        let lazy = LazyJSONValue(compactText: #"{"a":[1,2]}"#)
        var output: [UInt8] = []
        lazy.writePretty { output.append(contentsOf: $0) }
        #expect(String(decoding: output, as: UTF8.self) == "{\n  \"a\": [\n    1,\n    2\n  ]\n}")
        #expect(!lazy.isParsed)
        #expect(lazy.stringValue == nil)
        #expect(lazy.value == .object([JSONMember("a", .array([.integer(1), .integer(2)]))]))
        #expect(lazy.isParsed)
        #expect(LazyJSONValue(compactText: #""x\ty""#).stringValue == "x\ty")
    }

    @Test(arguments: [
        ([UInt8]("aé€😀".utf8), true), ([0xC0, 0x80], false), ([0xE0, 0x80, 0x80], false),
        ([0xED, 0xA0, 0x80], false), ([0xF4, 0x90, 0x80, 0x80], false), ([0xE2, 0x82], false),
        ([0xFF], false), (Array("12345678\u{E9}".utf8), true), ([0x41, 0x80], false),
    ])
    func utf8ValidatorAgreesWithString(bytes: [UInt8], valid: Bool) {
        #expect(bytes.withUnsafeBufferPointer(UTF8Validator.isValid) == valid)
        #expect((String(validating: bytes, as: UTF8.self) != nil) == valid)
    }
}
