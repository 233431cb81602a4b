import Testing

@testable import SophonCore

/// The accuracy bar: on the corpus of broken LLM outputs, no wrong value ever (a case is right
/// or refused) and at least 90% right.
@Suite struct LLMJSONExtractorCorpusTests {
    static let corpus = (try? ExtractorCorpus.load()) ?? ExtractorCorpus(text: "")

    /// What the extractor makes of one case.
    static func outcome(_ item: ExtractorCorpus.Case) -> ExtractorCorpus.Outcome {
        let found: [ExtractedJSON]
        do {
            found = try LLMJSONExtractor().extract(from: item.input)
        } catch {
            return item.expected == nil ? .right : .refused
        }
        let values = found.map(\.text)
        return values == item.expected ? .right : .wrong(values.joined(separator: " | "))
    }

    @Test func corpusIsLargeAndCoversEveryClass() {
        #expect(Self.corpus.cases.count >= 150)
        let categories = Set(Self.corpus.cases.map(\.category))
        let required: Set = [
            "fence", "prose", "quotes", "keys", "words", "comments", "commas", "colons", "brackets",
            "strings", "escaped", "ellipsis", "ndjson", "truncation", "numbers", "refusal",
        ]
        #expect(required.subtracting(categories).isEmpty)
    }

    @Test func noWrongValueAndNinetyPercentRight() {
        var right = 0
        var refused: [String] = []
        var wrong: [String] = []
        for item in Self.corpus.cases {
            switch Self.outcome(item) {
            case .right: right += 1
            case .refused: refused.append(item.description)
            case .wrong(let got): wrong.append("\(item): got \(got)")
            }
        }
        #expect(wrong.isEmpty, "wrong values:\n\(wrong.joined(separator: "\n"))")
        let total = Self.corpus.cases.count
        #expect(
            right * 10 >= total * 9,
            "\(right)/\(total) right; refused:\n\(refused.joined(separator: "\n"))")
    }

    @Test(arguments: corpus.cases.filter { $0.expected == nil })
    func nothingRecoverableIsRefused(item: ExtractorCorpus.Case) {
        #expect(Self.outcome(item) == .right)
    }
}
