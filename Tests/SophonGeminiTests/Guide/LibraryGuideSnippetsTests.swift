import Foundation
import Testing

/// docs/library.md shows only code that compiles: every ` ```swift ` block (but the
/// `Package.swift` excerpt) appears in one test source, each of its paragraphs line by line in
/// order, with other lines (the `#expect`s) allowed in between. Lines are compared without spaces, commas (a formatter
/// adds trailing ones) and `Self.`; comment lines are skipped. The table of the side-by-side
/// section counts the lines of its blocks.
@Suite struct LibraryGuideSnippetsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of `language` in `text`, in order.
    static func blocks(_ language: String, in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The code lines of `text`, each without comments, spaces, commas and `Self.`.
    static func chunks(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            var code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { return nil }
            if let comment = code.range(of: "  //") ?? code.range(of: " // ") {
                code = String(code[..<comment.lowerBound])
            }
            let squeezed = code.replacingOccurrences(of: "Self.", with: "").filter {
                !$0.isWhitespace && $0 != ","
            }
            return squeezed.isEmpty ? nil : squeezed
        }
    }

    /// How many of `chunks` appear in order in `stream`.
    static func matched(_ chunks: [String], in stream: String) -> Int {
        var position = stream.startIndex
        for (index, chunk) in chunks.enumerated() {
            guard let found = stream.range(of: chunk, range: position..<stream.endIndex) else { return index }
            position = found.upperBound
        }
        return chunks.count
    }

    static func testSources() throws -> [(path: String, stream: String)] {
        let tests = root.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        var sources: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            sources.append((url.path, chunks(try String(contentsOf: url, encoding: .utf8)).joined()))
        }
        return sources
    }

    @Test func everySwiftBlockOfTheGuideIsInATestSource() throws {
        let guide = try String(
            contentsOf: Self.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let sources = try Self.testSources()
        let blocks = Self.blocks("swift", in: guide).filter { !$0.contains(".package(") }
        #expect(blocks.count >= 30)
        for block in blocks {
            // Each paragraph (lines between blank lines) in order; the paragraphs in any order,
            // all in one source (a test declares its types before the code that uses them).
            let paragraphs = block.components(separatedBy: "\n\n").map(Self.chunks).filter { !$0.isEmpty }
            let found = sources.contains { source in
                paragraphs.allSatisfy { Self.matched($0, in: source.stream) == $0.count }
            }
            #expect(found, "not in any test source: \(paragraphs.first?.first ?? "")")
        }
    }

    /// Lines of a side-by-side block: not blank, not a comment.
    static func countedLines(_ block: String) -> Int {
        block.split(separator: "\n").filter { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            return !code.isEmpty && !code.hasPrefix("//") && !code.hasPrefix("#")
        }.count
    }

    @Test func theSideBySideTableCountsItsBlocks() throws {
        let guide = try String(
            contentsOf: Self.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let section = try #require(
            guide.components(separatedBy: "## Sophon and google-genai side by side").last)
        let swift = Self.blocks("swift", in: section).map(Self.countedLines)
        let python = Self.blocks("python", in: section).map(Self.countedLines)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Task") }
        let table: [[String]] = rows.map { row in
            row.split(separator: "|").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        let tasks = table.map { $0[0] }
        let sophon: [Int] = table.map { Int($0[1]) ?? -1 }
        let google: [Int] = table.map { Int($0[2]) ?? -1 }
        #expect(
            tasks == ["Structured output", "A two-tool loop", "Streaming", "A file upload", "A small batch"])
        #expect(sophon == swift)
        #expect(google == python)
        #expect(zip(swift, python).allSatisfy { $0 <= $1 })
    }
}
