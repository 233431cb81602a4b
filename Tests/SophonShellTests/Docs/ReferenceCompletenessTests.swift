import Foundation
import Testing

@testable import SophonShell

/// Issue 25 point 16: completions cover subcommands, options and every setting; `help set`
/// and the man page list the settings; the man page lists every file Sophon keeps.
@Suite struct ReferenceCompletenessTests {
    @Test func subcommandsComeFromTheUsageLine() throws {
        let registry = PluginRegistry.standard()
        func subcommands(_ name: String) throws -> [String] {
            CommandOutline.subcommands(name, usage: try #require(registry.command(named: name)).usage)
        }
        #expect(try subcommands("key") == ["set", "show", "delete", "path"])
        #expect(try subcommands("files") == ["show", "delete"])
        #expect(try subcommands("logs") == ["search", "show"])
        #expect(try subcommands("plugin") == ["load", "unload"])
        #expect(try subcommands("batch").prefix(4) == ["submit", "list", "status", "wait"])
        #expect(try subcommands("echo") == [])
    }

    @Test func strictSubcommandsAreThoseOfCommandsWhoseFirstWordIsAlwaysOne() throws {
        let registry = PluginRegistry.standard()
        func strict(_ name: String) throws -> [String] {
            CommandOutline.strictSubcommands(name, usage: try #require(registry.command(named: name)).usage)
        }
        #expect(try strict("key") == ["set", "show", "delete", "path"])
        #expect(try strict("agent") == ["status", "wait", "cancel", "show"])
        #expect(try strict("cache") == ["create", "list", "show", "extend", "delete"])
        #expect(try strict("logs") == ["search", "show"])
        #expect(try strict("collections") == ["delete"])
        // A form that starts with an operand takes any first word.
        #expect(try strict("prompt") == [])
        #expect(try strict("schema") == [])
        #expect(try strict("echo") == [])
    }

    @Test func theScriptsCompleteSubcommands() {
        let outline = CommandOutline(PluginRegistry.standard())
        let script = CompletionScript(outline: outline)
        #expect(
            script.text(for: .bash).contains(
                "        '1 key') COMPREPLY=($(compgen -W 'set show delete path' -- \"$cur\")) ;;\n"))
        #expect(script.text(for: .zsh).contains("        '1 files') compadd -- show delete ;;\n"))
        #expect(
            script.text(for: .fish).contains(
                "complete -c sophon -n 'test (__sophon_position) = \"1 logs\"' -a 'search show'\n"))
    }

    @Test func tabCompletesSubcommandsInTheREPL() {
        let completion = CompletionProvider(registry: PluginRegistry.standard())
        #expect(completion.complete(line: "key ", cursor: 4) == ["set", "show", "delete", "path"])
        #expect(completion.complete(line: "files d", cursor: 7) == ["delete"])
        #expect(completion.complete(line: "logs s", cursor: 6) == ["search", "show"])
    }

    @Test func aCommandTakingAFileOrASubcommandCompletesBoth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("complete-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["story.prompt", "notes.txt"] {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path, contents: nil))
        }
        let completion = CompletionProvider(registry: PluginRegistry.standard(), directory: folder.path)
        #expect(completion.complete(line: "prompt s", cursor: 8) == ["save", "story.prompt"])
        #expect(completion.complete(line: "attach ", cursor: 7) == ["clear", "notes.txt", "story.prompt"])
        let outline = CommandOutline(PluginRegistry.standard())
        #expect(outline.commands.first { $0.name == "prompt" }?.first == .wordsAndFiles(["save", "render"]))
        let script = CompletionScript(outline: outline)
        #expect(
            script.text(for: .bash).contains(
                "'1 prompt') COMPREPLY=($(compgen -W 'save render' -- \"$cur\") $(compgen -f -- \"$cur\")) ;;\n"
            ))
        #expect(script.text(for: .zsh).contains("'1 prompt') compadd -- save render; _files ;;\n"))
        #expect(
            script.text(for: .fish).contains(
                "complete -c sophon -n 'test (__sophon_position) = \"1 prompt\"' -F -a 'save render'\n"))
    }

    @Test func everySettingIsCompletedAndListed() throws {
        let registry = PluginRegistry.standard()
        let outline = CommandOutline(registry)
        let set = try #require(outline.commands.first { $0.name == "set" })
        #expect(set.first == .words(registry.settingNames))
        let page = ManPage.text(registry)
        let help = SettingsReference.helpRows(for: "set", registry)
        for setting in registry.settings {
            #expect(page.contains(".TP\n.B \(ManPage.escape(setting.name))\n"))
            let row = help.split(separator: "\n").first {
                $0.split(separator: " ").first == Substring(setting.name)
            }
            #expect(row != nil, "help set misses \(setting.name)")
        }
        #expect(page.contains(".TP\n.B tool\\-confirm\non | off\n"))
        #expect(help.hasPrefix("\nsettings:\n  model  "))
        #expect(
            help.contains(
                "\n  tool-confirm         on | off\n  log                  on | off\n"
                    + "  embed-model          gemini-embedding-001 | gemini-embedding-2\n  judge-model          default | "
            ))
        #expect(help.contains("\n  temperature\n"))
        #expect(SettingsReference.helpRows(for: "run", registry) == "")
    }

    @Test func theManPageListsEveryFileOfTheStateAndConfigFolders() {
        let page = ManPage.text(PluginRegistry.standard())
        for file in [
            "~/.config/sophon/keys.json", "~/.config/sophon/sophonrc", "~/.config/sophon/settings.json",
            "~/.config/sophon/plugins/", "~/.config/sophon/mcp.json", "~/.local/state/sophon/history",
            "~/.local/state/sophon/logs.db", "~/.local/state/sophon/batches.json",
            "~/.local/state/sophon/media/", "~/.local/state/sophon/tmp/",
        ] {
            #expect(page.contains(".TP\n.I \(ManPage.escape(file))\n"), "the man page misses \(file)")
        }
    }
}
