import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `prompt render` through the real binary (docs/prompts.md): the JSON on stdout, a partial
/// beside the file, and an error at FILE:LINE:COL with exit status 1.
@Suite(.childSlots) struct PromptRenderTests {
    static func run(_ arguments: [String], files: [String: String]) async throws -> SophonProcess.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prompt-render-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return try await SophonProcess.run(arguments, files: folder)
    }

    @Test func rendersTheDotpromptShape() async throws {
        let files = [
            "greet.prompt":
                "---\nmodel: m\nconfig:\n  temperature: 0.5\n---\n{{role \"system\"}}Be kind.\n{{role \"user\"}}Hi {{name}}. {{> sig}}\n",
            "_sig.prompt": "Bye.",
        ]
        let outcome = try await Self.run(
            [
                "prompt", "render", "greet.prompt", "--data", #"{"input": {"name": "Ann"}}"#, "--options",
                #"{"config": {"topK": 2}}"#,
            ],
            files: files)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(
            try JSONValue(parsing: outcome.stdout).compactText
                == #"{"model":"m","config":{"temperature":0.5,"topK":2},"ext":{},"raw":{"model":"m","config":{"temperature":0.5}},"messages":[{"role":"system","content":[{"text":"Be kind.\n"}]},{"role":"user","content":[{"text":"Hi Ann. Bye."}]}]}"#
        )
    }

    @Test func anUnknownHelperIsAnErrorAtItsLocation() async throws {
        let outcome = try await Self.run(
            ["prompt", "render", "bad.prompt"], files: ["bad.prompt": "---\nmodel: m\n---\nHi {{shout name}}"]
        )
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "error: prompt render: bad.prompt:4:4: unknown helper 'shout'\n")
    }

    /// An option mistake of `prompt render` names `prompt render`, as `prompt save`'s names
    /// `prompt save`.
    @Test(arguments: [
        (["--dat", "{}"], "error: prompt render: unknown option '--dat' (did you mean '--data'?)\n"),
        (["--data"], "error: prompt render: --data needs JSON or @FILE\n"),
        (["--force"], "error: prompt render: unknown option '--force'\n"),
    ])
    func anOptionMistakeNamesPromptRender(options: [String], stderr: String) async throws {
        let outcome = try await Self.run(
            ["prompt", "render", "p.prompt"] + options, files: ["p.prompt": "Hi"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == stderr)
    }
}
