import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

/// Declared options (PRODUCT §11): the one option parser, "did you mean" for an unknown
/// option, the one on/off reading, and the docs generated from the table.
@Suite(.childSlots) struct CommandOptionTests {
    static let declared = [
        CommandOption(name: "--jobs", aliases: ["-j"], value: "N", help: "", missing: "a number"),
        CommandOption(name: "--live", help: ""),
        CommandOption(name: "--junit", value: "FILE", help: ""),
    ]

    @Test func optionsValuesAndOperands() throws {
        let parsed = try CommandOption.parse(
            ["a", "-j", "3", "--live", "b", "--junit=x.xml", "--", "--c"], declared: Self.declared)
        #expect(parsed.operands == ["a", "b", "--c"])
        #expect(parsed.value("--jobs") == "3")
        #expect(parsed.given.first?.spelling == "-j")
        #expect(parsed.has("--live"))
        #expect(parsed.value("--junit") == "x.xml")
        let leading = try CommandOption.parse(
            ["--live", "a", "--live"], as: .leading, declared: Self.declared)
        #expect(leading.operands == ["a", "--live"])
    }

    @Test func badWordsAreNamedWithTheClosestOption() {
        let cases: [([String], String)] = [
            (["--lvie"], "test: unknown option '--lvie' (did you mean '--live'?)"),
            (["--live=1"], "test: unknown option '--live=1' (did you mean '--live'?)"),
            (["--zzzzzz"], "test: unknown option '--zzzzzz'"),
            (["-j"], "test: -j needs a number"),
            (["--junit"], "test: option '--junit' needs a value"),
            (["--live", "a", "--live"], "test: option '--live' is given twice"),
            // A value option given twice is the same slip (by any spelling), never "the last wins".
            (["--jobs", "2", "--jobs", "3"], "test: option '--jobs' is given twice"),
            (["-j", "2", "a", "--jobs=3"], "test: option '--jobs' is given twice"),
        ]
        for (words, message) in cases {
            #expect(throws: CommandFailure(kind: .usage, message: message)) {
                do {
                    _ = try CommandOption.parse(words, declared: Self.declared)
                } catch let error as OptionError {
                    throw error.failure(command: "test")
                }
            }
        }
    }

    @Test func onOffWordsInAnyCase() {
        for word in ["on", "YES", "True", "1"] { #expect(OnOff.parse(word) == true) }
        for word in ["off", "No", "FALSE", "0"] { #expect(OnOff.parse(word) == false) }
        #expect(OnOff.parse("maybe") == nil)
    }

    @Test func anUnknownOptionSuggestsTheDeclaredOne() async throws {
        let outcome = try await SophonProcess.run(["test", "--lvie"])
        #expect(
            outcome
                == .init(
                    stdout: "", stderr: "sophon: test: unknown option '--lvie' (did you mean '--live'?)\n",
                    status: 2))
        // A usage error in a script fails the script as every other usage error does (status 1).
        let models = try await SophonProcess.run(["-c", "models --lvie", "-c", "models x"])
        #expect(
            models
                == .init(
                    stdout: "",
                    stderr: """
                        -c:1:1: error: models: unknown option '--lvie' (did you mean '--live'?)
                        -c:2:1: error: usage: models [--live] [--json]

                        """, status: 1))
    }

    /// `--json` after the command word prints that one command as `sophon --json` does, for the
    /// older commands too (`test`, `run`, `batch`, `models`, `files`, `extract`).
    @Test func theOlderCommandsTakeJSONAfterTheirWord() async throws {
        let outcome = try await SophonProcess.run(["extract", "--json", #"{"a": 1,}"#])
        #expect(
            outcome
                == .init(
                    stdout: #"{"command":"extract --json {\"a\": 1,}","ok":true,"result":{"a":1}}"# + "\n",
                    stderr: "repair: removed the trailing comma at offset 7\n", status: 0))
        let models = try await SophonProcess.run(["-c", "models --json --json"])
        #expect(models.stderr == "-c:1:1: error: models: option '--json' is given twice\n")
        #expect(models.status == 1)
        let registry = PluginRegistry.standard()
        for name in ["test", "run", "batch", "models", "files", "extract"] {
            let command = try #require(registry.command(named: name))
            #expect(command.takesJSONFlag, "\(name)")
            #expect(command.options.contains { $0.name == "--json" }, "\(name)")
        }
    }

    @Test func subcommandOptionsComeFromTheTableToo() async throws {
        // Refused before anything is sent (the server address is a closed port).
        let outcome = try await SophonProcess.run(
            [
                "-c", "plugin load --trsut x", "-c", "plugin unload --trust x", "-c",
                "batch submit in.jsonl --max-requests",
            ], environment: ["GEMINI_API_KEY": "AIzaSyA1234567890abcdefghijklmnopqrstu"])
        #expect(
            outcome.stderr == """
                -c:1:1: error: plugin load: unknown option '--trsut' (did you mean '--trust'?)
                -c:2:1: error: usage: plugin load [--trust] PATH | plugin unload NAME
                -c:3:1: error: batch submit: --max-requests takes a whole number above 0

                """)
    }

    @Test func attachFilesAndMCPAddReadTheirOptionsFromTheTable() async throws {
        // Refused before anything is sent or started (the server address is a closed port).
        let outcome = try await SophonProcess.run(
            [
                "-c", "files --al", "-c", "files show --all", "-c", "attach --mim video/mp4 a.mp4", "-c",
                "attach --mime mp4 a.mp4", "-c", "attach a.mp4 --mime", "-c", "mcp add --trsut t -- x",
                "-c", "mcp add t u -- x",
            ], environment: ["GEMINI_API_KEY": "AIzaSyA1234567890abcdefghijklmnopqrstu"])
        #expect(
            outcome.stderr == """
                -c:1:1: error: files: unknown option '--al' (did you mean '--all'?)
                -c:2:1: error: usage: files [--json] | files show NAME | files delete NAME|--all
                -c:3:1: error: attach: unknown option '--mim' (did you mean '--mime'?)
                -c:4:1: error: attach: --mime needs a type such as video/mp4, not 'mp4'
                -c:5:1: error: attach: --mime needs a type such as video/mp4
                -c:6:1: error: mcp add: unknown option '--trsut' (did you mean '--trust'?)
                -c:7:1: error: usage: mcp add [--trust] NAME -- COMMAND [ARGS...] | mcp list | mcp remove NAME | mcp disable NAME | mcp enable NAME

                """)
        // `--mime` holds for the words after it, wherever it stands among them.
        let parsed = try CommandOption.parse(
            ["a", "--mime", "x/y", "b", "--mime=z/w", "c"], declared: AttachCommand.declared)
        #expect(parsed.operands == ["a", "b", "c"])
        #expect((0..<3).map { parsed.value("--mime", beforeOperand: $0) } == [nil, "x/y", "z/w"])
        // Repeatable after an operand only: two types for the same files is a slip.
        #expect(throws: OptionError.repeated("--mime")) {
            try CommandOption.parse(
                ["--mime", "x/y", "--mime", "z/w", "a"], declared: AttachCommand.declared)
        }
    }

    /// Every command reads a repeated option through the one parser: a usage error before
    /// anything is read or sent (`run` took the last `--jobs`).
    @Test func anOptionGivenTwiceIsAUsageErrorInEveryCommand() async throws {
        let outcome = try await SophonProcess.run(
            [
                "-c", "run in.jsonl -o a.jsonl --jobs 2 --jobs 3", "-c", "run in.jsonl -o a.jsonl -o b.jsonl",
                "-c", "logs -n 2 -n 3", "-c", "ask --model a --model b hi", "-c",
                "chat --continue --continue hi",
            ], environment: ["GEMINI_API_KEY": "AIzaSyA1234567890abcdefghijklmnopqrstu"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: """
                        -c:1:1: error: run: option '--jobs' is given twice
                        -c:2:1: error: run: option '-o' is given twice
                        -c:3:1: error: logs: option '-n' is given twice
                        -c:4:1: error: ask: option '--model' is given twice
                        -c:5:1: error: chat: option '--continue' is given twice

                        """, status: 1))
    }

    /// A duration's refusal says its bound: a year is the longest the shell takes.
    @Test func aDurationPastAYearIsRefusedNamingTheBound() async throws {
        let outcome = try await SophonProcess.run([
            "-c", "set timeout 1000000000s", "-c", "set timeout 8760h", "-c", "show timeout",
        ])
        #expect(
            outcome
                == .init(
                    stdout: "8760h\n",
                    stderr:
                        "-c:1:1: error: set timeout: expected a positive duration up to a year, such as 30s, 500ms or 2m, got '1000000000s'\n",
                    status: 1))
    }

    @Test func onOffSettingsTakeAnySpelling() async throws {
        let outcome = try await SophonProcess.run([
            "-c", "set log YES", "-c", "show log", "-c", "set tool-confirm yes", "-c", "show tool-confirm",
            "-c", "set stream Off", "-c", "show stream",
        ])
        #expect(outcome == .init(stdout: "on\non\noff\n", stderr: "", status: 0))
    }

    @Test func helpAndTheManPageListTheDeclaredOptions() throws {
        let registry = PluginRegistry.standard()
        let run = try #require(registry.command(named: "test"))
        #expect(
            CorePlugin.optionRows(run) == """

                options:
                  --jobs, -j N      how many files run at once
                  --record-missing  record a tape for each file that has none
                  --live            ignore tapes: every file calls the server
                  --junit FILE      write a JUnit XML report to FILE
                  --tap             print the report as TAP
                  --html FILE       write a self-contained HTML report to FILE
                  --models A,B      run every file on each model (tapes NAME.MODEL.tape)
                  --json            print this command as --json does: one JSON object on one line
                """)
        let page = ManPage.text(registry)
        #expect(page.contains(".RS\n.TP\n.B \\-\\-jobs, \\-j N\nhow many files run at once\n"))
        for flag in HelpText.flags {
            #expect(page.contains(".B \(ManPage.escape(flag.synopsis))\n\(ManPage.escape(flag.help))\n"))
        }
        let outline = CommandOutline(registry)
        let bash = CompletionScript(outline: outline).text(for: .bash)
        #expect(
            bash.contains(
                "test) COMPREPLY=($(compgen -W '--jobs -j --record-missing --live --junit --tap --html --models --json' -- \"$cur\")); return ;;"
            ))
        let zsh = CompletionScript(outline: outline).text(for: .zsh)
        #expect(
            zsh.contains(
                "test) compadd -- --jobs -j --record-missing --live --junit --tap --html --models --json; return ;;"
            )
        )
        #expect(outline.flags == HelpText.flags.flatMap(\.spellings) + ["-c", "-i"])
    }

    @Test func everyDeclaredOptionIsInItsUsageLine() {
        for plugin in PluginRegistry.standard().plugins {
            for command in plugin.commands {
                for option in command.options {
                    #expect(
                        option.spellings.contains { command.usage.contains($0) },
                        "\(command.name): \(option.name) is not in '\(command.usage)'")
                }
            }
        }
    }
}
