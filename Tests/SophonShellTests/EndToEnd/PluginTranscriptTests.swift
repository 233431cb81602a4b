import Foundation
import SophonTestSupport
import Testing

/// Golden transcripts of the real binary with external plugins (docs/plugin-protocol.md).
///
/// Each folder under `PluginGolden/` is laid out like `Golden/` (`args`, optional `stdin`,
/// `files/`, expected `stdout`, `stderr`, `status`). Before the run, the home folder also
/// gets the Python example in `plugins/` (found by discovery) and the test plugins of
/// `Support/Plugins/` beside the scripts (for `plugin load ./sophon-plugin-...`); the build
/// folder, which holds the Swift example `sophon-plugin-stats`, is first on `PATH`. Paths in
/// the output are written `$SOPHON_HOME` and `$BUILD`.
///
/// Re-record on purpose with `SOPHON_RECORD_GOLDEN=1 swift test --filter PluginTranscriptTests`.
@Suite(.childSlots) struct PluginTranscriptTests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = testsFolder.appendingPathComponent("PluginGolden")
    static let examples = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("examples/plugins")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }()

    @Test func thereAreTranscripts() {
        #expect(Self.cases.count >= 4)
    }

    @Test(arguments: cases)
    func transcript(_ name: String) async throws {
        let folder = Self.root.appendingPathComponent(name)
        let read = { (file: String) -> String? in
            try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        let stage = try Self.stage(folder.appendingPathComponent("files"))
        defer { try? FileManager.default.removeItem(at: stage) }
        let arguments = (read("args") ?? "").split(separator: "\n").map(String.init)
        let build = SophonProcess.binary.deletingLastPathComponent().path
        let outcome = try await SophonProcess.run(
            arguments, stdin: read("stdin") ?? "", environment: ["PATH": build + ":/usr/bin:/bin"],
            files: stage)
        let stdout = Self.normalized(outcome.stdout, build: build)
        let stderr = Self.normalized(outcome.stderr, build: build)
        if ProcessInfo.processInfo.environment["SOPHON_RECORD_GOLDEN"] == "1" {
            try Data(stdout.utf8).write(to: folder.appendingPathComponent("stdout"))
            try Data(stderr.utf8).write(to: folder.appendingPathComponent("stderr"))
            try Data("\(outcome.status)\n".utf8).write(to: folder.appendingPathComponent("status"))
            return
        }
        #expect(stdout == read("stdout") ?? "")
        #expect(stderr == read("stderr") ?? "")
        #expect("\(outcome.status)\n" == read("status"))
    }

    /// A copy of `files` plus `plugins/sophon-plugin-csv` and the test plugins.
    static func stage(_ files: URL) throws -> URL {
        let manager = FileManager.default
        let stage = manager.temporaryDirectory.appendingPathComponent("sophon-stage-\(UUID().uuidString)")
        if manager.fileExists(atPath: files.path) {
            try manager.copyItem(at: files, to: stage)
        } else {
            try manager.createDirectory(at: stage, withIntermediateDirectories: true)
        }
        let plugins = stage.appendingPathComponent("plugins")
        try manager.createDirectory(at: plugins, withIntermediateDirectories: true)
        try manager.copyItem(
            at: examples.appendingPathComponent("sophon-plugin-csv"),
            to: plugins.appendingPathComponent("sophon-plugin-csv"))
        let support = testsFolder.deletingLastPathComponent().appendingPathComponent("Support/Plugins")
        for file in try manager.contentsOfDirectory(atPath: support.path) {
            try manager.copyItem(
                at: support.appendingPathComponent(file), to: stage.appendingPathComponent(file))
        }
        return stage
    }

    /// `text` with the run's home folder written `$SOPHON_HOME` and the build folder `$BUILD`.
    static func normalized(_ text: String, build: String) -> String {
        let home = /\/[^\s:']*\/sophon-test-[0-9A-Fa-f-]+/
        return text.replacing(build, with: "$BUILD").replacing(home, with: "$SOPHON_HOME")
    }
}
