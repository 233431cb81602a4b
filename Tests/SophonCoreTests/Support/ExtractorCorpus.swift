import Foundation

/// The accuracy table of broken LLM outputs in `Tests/Fixtures/extractor-corpus.txt` (format
/// described at the top of that file; `scripts/bench-extract` reads the same file).
struct ExtractorCorpus {
    /// One case: an input and the values it must give, or `nil` when it must be refused.
    struct Case: CustomStringConvertible {
        var category: String
        var name: String
        var input: String
        var expected: [String]?

        var description: String { "\(category): \(name)" }
    }

    /// How one case went.
    enum Outcome: Equatable {
        case right
        /// Nothing returned where values were expected.
        case refused
        /// Values returned that differ from the expected ones (or values where a refusal was
        /// expected): the failure that must never happen.
        case wrong(String)
    }

    var cases: [Case]

    /// Loads the corpus next to this source file.
    static func load(filePath: String = #filePath) throws -> ExtractorCorpus {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/extractor-corpus.txt")
        return ExtractorCorpus(text: try String(contentsOf: url, encoding: .utf8))
    }

    /// Parses corpus text.
    init(text: String) {
        cases = []
        var header: Substring?
        var input: [Substring] = []
        var expected: [String] = []
        var inExpectations = false
        func flush() {
            guard let header else { return }
            let trailingNewline = header.hasSuffix(" +nl")
            let title = trailingNewline ? header.dropLast(4) : header
            let parts = title.split(separator: ":", maxSplits: 1)
            let category = String(parts.first ?? "")
            let name = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            let body = input.joined(separator: "\n") + (trailingNewline ? "\n" : "")
            let values = expected == ["REFUSE"] ? nil : expected
            cases.append(Case(category: category, name: name, input: body, expected: values))
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") {
                flush()
                header = line.dropFirst(4)
                input = []
                expected = []
                inExpectations = false
            } else if line.hasPrefix("--> ") {
                inExpectations = true
                expected.append(String(line.dropFirst(4)))
            } else if header != nil, !inExpectations {
                input.append(line)
            }
        }
        flush()
    }
}
