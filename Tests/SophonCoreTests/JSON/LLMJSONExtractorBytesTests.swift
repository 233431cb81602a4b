import Synchronization
import Testing

@testable import SophonCore

/// `extract(fromUTF8:releasingInput:)` (issue 20): the same values, ranges and repairs as
/// `extract(from:)` on the same text, and the release hook called while a large input is read.
@Suite struct LLMJSONExtractorBytesTests {
    let extractor = LLMJSONExtractor()

    /// What one call found, or the error it threw, as comparable text.
    static func summary(_ result: Result<[ExtractedJSON], LLMJSONExtractionError>) -> String {
        switch result {
        case .success(let found):
            found.map { "\($0.text) \($0.range) \($0.repairs.map(\.description))" }.joined(separator: "\n")
        case .failure(let error): "error: \(error)"
        }
    }

    func fromText(_ text: String) -> String {
        Self.summary(Result { () throws(LLMJSONExtractionError) in try extractor.extract(from: text) })
    }

    func fromBytes(_ text: String, release: (@Sendable () -> Void)? = nil) -> String {
        var text = text
        return text.withUTF8 { bytes in
            Self.summary(
                Result { () throws(LLMJSONExtractionError) in
                    try extractor.extract(fromUTF8: bytes, releasingInput: release)
                })
        }
    }

    @Test func sameAsFromTextOnTheWholeCorpus() throws {
        let corpus = try ExtractorCorpus.load()
        for item in corpus.cases {
            #expect(fromBytes(item.input, release: {}) == fromText(item.input), "\(item)")
        }
        #expect(corpus.cases.count >= 250)
    }

    /// A long fenced reply (prose, a fence, repairs, cut off) read with the hook: the hook
    /// runs during the fence search and while the value's text is written, and nothing
    /// changes.
    @Test func releaseIsCalledWhileALargeInputIsReadAndChangesNothing() {
        var body = "Here you are:\n```json\n[\n"
        var index = 0
        while body.utf8.count < 3_000_000 {
            body += "  {id: \(index), 'name': 'é \(index)', ok: True,},\n"
            index += 1
        }
        let calls = Atomic<Int>(0)
        let bytes = fromBytes(body, release: { calls.add(1, ordering: .relaxed) })
        #expect(bytes == fromText(body))
        // 3 MB: at least 2 calls in the fence search (one per MiB) and one per 64 KiB of text.
        #expect(calls.load(ordering: .relaxed) >= 2 + 2_000_000 / 65_536)
    }

    @Test func emptyAndScalarInputs() {
        for text in ["", "   ", "42", "\"x\"", "prose only", "```json\ntrue\n```"] {
            #expect(fromBytes(text) == fromText(text), "\(text)")
        }
    }
}
