import Foundation
import SophonCore
import Testing

@testable import SophonShell

/// Tab completion with external plugins: their names before they start, their commands and
/// static completions after, and the words of `plugin`.
@Suite struct PluginCompletionTests {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/Plugins")

    final class Discard: ShellTextSink {
        func write(_ text: String) {}
    }

    @Test func externalNamesCommandsAndPluginWordsComplete() async throws {
        let registry = PluginRegistry.standard()
        let host = ExternalPluginHost(
            builtInNames: registry.commandNames, stderr: Discard(),
            discovery: PluginDiscovery(folders: [Self.support.path]))
        let completion = CompletionProvider(registry: registry, externalPlugins: host)
        #expect(completion.complete(line: "fu", cursor: 2) == ["future"])
        #expect(completion.complete(line: "plu", cursor: 3) == ["plugin", "plugins"])
        #expect(completion.complete(line: "plugin ", cursor: 7) == ["load", "unload"])
        #expect(completion.complete(line: "plugin unload f", cursor: 15) == ["faulty", "future"])
        _ = try await host.command(named: "faulty-slow", timeout: .seconds(20))
        #expect(
            completion.complete(line: "faulty-s", cursor: 8) == ["faulty-session", "faulty-slow"])
    }
}
