import SophonCore

/// Scores ``LLMJSONExtractor`` on the accuracy corpus (format: Tests/Fixtures/extractor-corpus.txt).
enum BenchCorpus {
    /// Counts of right, refused and wrong cases; lists the cases that were not right on stdout
    /// as `refused: NAME` or `wrong: NAME: GOT`.
    static func score(_ text: String) -> (right: Int, refused: Int, wrong: Int) {
        var right = 0
        var refused = 0
        var wrong = 0
        for item in cases(text) {
            let values: [String]?
            do {
                values = try LLMJSONExtractor().extract(from: item.input).map(\.text)
            } catch {
                values = nil
            }
            if values == item.expected {
                right += 1
            } else if values == nil {
                refused += 1
                print("refused: \(item.name)")
            } else {
                wrong += 1
                print("wrong: \(item.name): \(values?.joined(separator: " | ") ?? "")")
            }
        }
        return (right, refused, wrong)
    }

    /// The cases: name, input, expected compact values (`nil`: must be refused).
    static func cases(_ text: String) -> [(name: String, input: String, expected: [String]?)] {
        var result: [(name: String, input: String, expected: [String]?)] = []
        var header: Substring?
        var input: [Substring] = []
        var expected: [String] = []
        var inExpectations = false
        func flush() {
            guard let header else { return }
            let newline = header.hasSuffix(" +nl")
            let body = input.joined(separator: "\n") + (newline ? "\n" : "")
            result.append(
                (String(newline ? header.dropLast(4) : header), body, expected == ["REFUSE"] ? nil : expected)
            )
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
        return result
    }
}
