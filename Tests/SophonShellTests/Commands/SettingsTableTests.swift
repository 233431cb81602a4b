import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

/// The one settings table (PRODUCT §11): the session's settings and those the plugins register
/// are seen alike by `show`, `set`, Tab after `set` and "did you mean".
@Suite(.childSlots) struct SettingsTableTests {
    @Test func thePluginsSettingsAreInTheTable() throws {
        let registry = PluginRegistry.standard()
        let names = registry.settingNames
        // The shell's own settings with the Gemini plugin's placed among them, as
        // docs/commands.md lists them, then the other plugins' in registration order.
        #expect(
            names
                == [
                    "model", "temperature", "max-tokens", "system", "stream", "output", "bail", "echo",
                    "thinking", "timeout", "language", "dry-run", "top-p", "top-k", "seed", "stop",
                    "presence-penalty", "frequency-penalty", "safety", "response-modalities",
                    "media-resolution", "media-dir", "budget", "api", "store", "cache", "service-tier",
                    "backend", "tools", "tool-mode",
                    "tool-rounds", "tool-timeout", "tool-confirm", "log", "embed-model", "judge-model",
                ])
        #expect(registry.settingValues("log") == ["on", "off"])
        #expect(registry.settingValues("budget") == ["off"])
        #expect(registry.settingValues("tool-confirm") == ["on", "off"])
        #expect(registry.settingValues("stop") == ["none"])
        #expect(registry.settingValues("model")?.isEmpty == false)
        #expect(registry.settingValues("system") == nil)
        let set = try #require(registry.command(named: "set"))
        guard case .custom(let choose) = set.completion, case .words(let words) = choose([], registry) else {
            Issue.record("set completes no words")
            return
        }
        #expect(words.contains("log") && words.contains("tool-confirm"))
        #expect(CommandOutline(registry).settings == names)
    }

    @Test func showListsThePluginsSettingsAndSetSuggestsThem() async throws {
        let outcome = try await SophonProcess.run(["--no-log", "-c", "show", "-c", "set tool-confrim on"])
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.suffix(8) == [
                "tools: none", "tool-mode: auto", "tool-rounds: 10", "tool-timeout: 1m", "tool-confirm: on",
                "log: off", "embed-model: gemini-embedding-001", "judge-model: gemini-3.8-flash",
            ])
        #expect(
            outcome.stderr == "-c:2:1: error: unknown setting 'tool-confrim' (did you mean 'tool-confirm'?)\n"
        )
    }
}
