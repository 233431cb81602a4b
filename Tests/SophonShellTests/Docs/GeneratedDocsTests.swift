import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

/// `--completions`, `--man` and `--help`, generated from the command table.
@Suite(.childSlots) struct GeneratedDocsTests {
    @Test func completionsFlagIsParsed() throws {
        let invocation = try Invocation.parse(["--completions", "zsh"], isCommand: { _ in false })
        #expect(invocation.action == .completions(.zsh))
        #expect(try Invocation.parse(["--man"], isCommand: { _ in false }).action == .manPage)
    }

    @Test(arguments: [
        (["--completions", "ksh"], "option '--completions' expects bash, zsh or fish, got 'ksh'"),
        (["--completions"], "option '--completions' needs a value"),
    ])
    func completionsUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) {
            try Invocation.parse(arguments, isCommand: { _ in false })
        }
    }

    @Test func outlineReadsTheCommandTable() throws {
        let outline = CommandOutline(PluginRegistry.standard())
        let set = try #require(outline.commands.first { $0.name == "set" })
        #expect(set.first == .words(PluginRegistry.standard().settingNames))
        let model = try #require(set.second.first { $0.word == "model" })
        #expect(model.candidates == .words(outline.models))
        #expect(outline.models.contains("gemini-2.5-flash"))
        #expect(outline.commands.first { $0.name == "source" }?.first == .files)
        let plugin = try #require(outline.commands.first { $0.name == "plugin" })
        #expect(plugin.second.map(\.word) == ["load"])
    }

    @Test func bashScriptSwitchesOnPositionAndCommand() {
        let script = CompletionScript(outline: CommandOutline(PluginRegistry.standard())).text(for: .bash)
        #expect(script.contains("        '1 source') COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"))
        #expect(script.hasSuffix("complete -o default -F _sophon sophon\n"))
    }

    @Test(arguments: [
        ("--model ID", "\\-\\-model ID"),
        ("a\\b", "a\\eb"),
        (".hidden", "\\&.hidden"),
        ("'quoted", "\\&'quoted"),
        ("one…", "one\\[u2026]"),
    ])
    func roffEscaping(text: String, escaped: String) {
        #expect(ManPage.escape(text) == escaped)
    }

    @Test func manPageOptionsComeFromTheHelpText() {
        let rows = ManPage.rows(of: HelpText.usage(PluginRegistry.standard()), section: "flags:")
        #expect(rows.first { $0.0 == "--model ID" }?.1 == "the model for this run")
        let files = ManPage.rows(of: HelpText.environmentAndFiles, section: "files:")
        #expect(files.map(\.0).contains("~/.config/sophon/sophonrc"))
    }

    /// PRODUCT §10: `--help` lists the environment variables and files the shell reads, each
    /// one a row (so the man page has it too).
    @Test func helpListsEveryFileAndVariableTheShellReads() {
        let files = ManPage.rows(of: HelpText.environmentAndFiles, section: "files:")
        #expect(
            files.map(\.0) == [
                "~/.config/sophon/keys.json", "~/.config/sophon/sophonrc", "~/.config/sophon/settings.json",
                "~/.config/sophon/plugins/", "~/.config/sophon/mcp.json", "~/.config/sophon/prices.json",
                "~/.local/state/sophon/history", "~/.local/state/sophon/logs.db",
                "~/.local/state/sophon/batches.json", "~/.local/state/sophon/caches.json",
                "~/.local/state/sophon/agents.json", "~/.local/state/sophon/embeddings.db",
                "~/.local/state/sophon/tmp/", "~/.local/state/sophon/media/",
            ])
        let variables = ManPage.rows(of: HelpText.environmentAndFiles, section: "environment:")
        #expect(
            variables.map(\.0) == [
                "GEMINI_API_KEY", "GOOGLE_API_KEY", "SOPHON_GEMINI_BASE_URL", "SOPHON_HOME",
                "XDG_CONFIG_HOME",
                "XDG_STATE_HOME", "LANGUAGE", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT",
                "GOOGLE_CLOUD_LOCATION", "GOOGLE_APPLICATION_CREDENTIALS", "CLOUDSDK_CONFIG", "HOME", "PATH",
                "TERM", "NO_COLOR", "EDITRC",
            ])
        #expect(
            files.first { $0.0 == "~/.local/state/sophon/embeddings.db" }?.1
                == "the stored embeddings (embed-multi, similar)")
    }

    @Test func helpListsEnvironmentAndFilesAndPointsToTheManPage() async throws {
        let outcome = try await SophonProcess.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("\nenvironment:\n  GEMINI_API_KEY   "))
        #expect(outcome.stdout.contains("\n  SOPHON_HOME   "))
        #expect(outcome.stdout.contains("\nfiles:\n  ~/.config/sophon/keys.json   "))
        #expect(
            outcome.stdout.hasSuffix(
                "\nMore: 'help COMMAND' in the shell, and 'man sophon' (docs/sophon.1).\n"))
    }
}
