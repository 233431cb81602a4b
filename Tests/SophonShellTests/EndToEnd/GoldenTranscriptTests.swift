import Foundation
import SophonTestSupport
import Testing

/// Golden transcripts of the real binary: each folder under `Golden/` holds `args` (one
/// argument per line), optional `stdin`, the files the run needs under `files/` (copied to the
/// run's current directory), and the expected `stdout`, `stderr` and `status`.
///
/// Re-record on purpose with `SOPHON_RECORD_GOLDEN=1 swift test --filter GoldenTranscriptTests`
/// and review the diff.
@Suite(.childSlots) struct GoldenTranscriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test func thereAreTranscripts() {
        #expect(Self.cases.count >= 8)
    }

    @Test(arguments: cases)
    func transcript(_ name: String) async throws {
        let folder = Self.root.appendingPathComponent(name)
        let read = { (file: String) -> String? in
            try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        let arguments = (read("args") ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).filter { !$0.isEmpty }
        let outcome = try await SophonProcess.run(
            arguments, stdin: read("stdin") ?? "", files: folder.appendingPathComponent("files"))
        if ProcessInfo.processInfo.environment["SOPHON_RECORD_GOLDEN"] == "1" {
            try Data(outcome.stdout.utf8).write(to: folder.appendingPathComponent("stdout"))
            try Data(outcome.stderr.utf8).write(to: folder.appendingPathComponent("stderr"))
            try Data("\(outcome.status)\n".utf8).write(to: folder.appendingPathComponent("status"))
            return
        }
        #expect(outcome.stdout == read("stdout") ?? "")
        #expect(outcome.stderr == read("stderr") ?? "")
        #expect("\(outcome.status)\n" == read("status"))
    }
}
