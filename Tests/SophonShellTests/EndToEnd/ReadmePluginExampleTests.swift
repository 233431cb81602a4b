import Foundation
import SophonTestSupport
import Testing

/// README's plugin example, as written, from a fresh `SOPHON_HOME` in a folder laid out like
/// the repository (`examples/plugins/sophon-plugin-csv`, `.build/debug/sophon-plugin-stats`)
/// with nothing on `PATH` but the system's folders (issue 25 point 17).
@Suite(.childSlots) struct ReadmePluginExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced block of README.md that loads the example plugins.
    static func example() throws -> String {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }
        guard let block = blocks.map(\.element).first(where: { $0.contains("plugin load examples/plugins/") })
        else {
            Issue.record("README.md has no block loading the example plugins")
            return ""
        }
        return block
    }

    @Test func theExampleRunsAsWritten() async throws {
        let example = try Self.example()
        #expect(
            example.hasPrefix(
                "plugin load examples/plugins/sophon-plugin-csv\nplugin load .build/debug/sophon-plugin-stats\n"
            ))
        let manager = FileManager.default
        let stage = manager.temporaryDirectory.appendingPathComponent("sophon-readme-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: stage) }
        let plugins = stage.appendingPathComponent("examples/plugins")
        let build = stage.appendingPathComponent(".build/debug")
        try manager.createDirectory(at: plugins, withIntermediateDirectories: true)
        try manager.createDirectory(at: build, withIntermediateDirectories: true)
        try manager.copyItem(
            at: Self.repository.appendingPathComponent("examples/plugins/sophon-plugin-csv"),
            to: plugins.appendingPathComponent("sophon-plugin-csv"))
        try manager.copyItem(
            at: SophonProcess.binary.deletingLastPathComponent().appendingPathComponent(
                "sophon-plugin-stats"),
            to: build.appendingPathComponent("sophon-plugin-stats"))
        // What the comments promise: $csv_rows and the mean in $last.
        let outcome = try await SophonProcess.run(
            [], stdin: example + "echo $csv_rows\necho ${last.mean}\n", files: stage)
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                [
                  {
                    "title": "Dune",
                    "year": 1965
                  },
                  {
                    "title": "Solaris",
                    "year": 1961
                  }
                ]
                title,year
                Dune,1965
                Solaris,1961
                {
                  "count": 2,
                  "sum": 3926,
                  "min": 1961,
                  "max": 1965,
                  "mean": 1963
                }
                2
                1963

                """)
        #expect(outcome.status == 0)
    }
}
