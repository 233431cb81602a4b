/// The text of `sophon --help`, `help` and `--version`, built from the registry.
enum HelpText {
    /// The version string printed by `sophon --version`.
    static let version = "sophon 0.1.0"

    /// `sophon --help`: invocation, flags and the commands of every loaded plugin.
    static func usage(_ registry: PluginRegistry) -> String {
        """
        sophon: a scripting shell for the Google Gemini API

        usage: sophon                        start the REPL (or read commands from stdin)
               sophon FILE.sophon [FILE...]  run scripts, then exit (-i: stay interactive)
               sophon -c 'LINE' [-c ...]     run command lines, then exit
               sophon COMMAND [ARGS...]      run one command (sophon extract < reply.txt)

        flags:

        """ + flagRows + "\n\n" + environmentAndFiles + "\n" + commandList(registry)
            + "\nMore: 'help COMMAND' in the shell, and 'man sophon' (docs/sophon.1).\n"
    }

    /// The flags of the `sophon` command line in `--help` order, declared once: `--help`, the
    /// man page, the completion scripts and "did you mean" read them (`-c`, `-i` and the hidden
    /// `--man`, `--commands-markdown` are in the usage lines instead).
    static let flags: [CommandOption] = [
        CommandOption(name: "--bail", help: "stop at the first failed command"),
        CommandOption(name: "--echo", help: "print each command before running it"),
        CommandOption(name: "--json", help: "one JSON object per command on stdout"),
        CommandOption(name: "--model", value: "ID", help: "the model for this run"),
        CommandOption(name: "--replay", value: "TAPE", help: "answer Gemini calls from a tape, offline"),
        CommandOption(name: "--record", value: "TAPE", help: "record every Gemini exchange to a tape"),
        CommandOption(name: "--no-rc", aliases: ["-X"], help: "do not run sophonrc"),
        CommandOption(name: "--no-history", help: "do not read or write the history file"),
        CommandOption(name: "--no-log", help: "do not log Gemini exchanges to logs.db"),
        CommandOption(name: "--continue", help: "resume the newest logged conversation"),
        CommandOption(name: "--verbose", help: "log requests, responses and retries on stderr"),
        CommandOption(
            name: "--allow-tools", help: "run tools served by plugins and MCP servers without asking"),
        CommandOption(name: "--version", help: "print the version"),
        CommandOption(name: "--help", help: "print this help"),
        CommandOption(
            name: "--completions", value: "SH", help: "print the completion script for bash, zsh or fish"),
    ]

    /// The `  --flag VALUE  what` rows of `--help`, from ``flags``.
    static var flagRows: String {
        flags.map { flag in
            "  " + flag.synopsis.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + flag.help
        }.joined(separator: "\n")
    }

    /// The environment variables and files the shell reads (docs/files.md), for `--help` and
    /// the man page: a heading line, then `  NAME  what` lines.
    static let environmentAndFiles = """
        environment:
          GEMINI_API_KEY          the API key (GOOGLE_API_KEY wins when both are set)
          GOOGLE_API_KEY          the API key
          SOPHON_GEMINI_BASE_URL  the API server, scheme://host[:port][/prefix] (tests)
          SOPHON_HOME             one folder for all the files below (tests)
          XDG_CONFIG_HOME         where the config folder is (default ~/.config)
          XDG_STATE_HOME          where the state folder is (default ~/.local/state)
          LANGUAGE                language of Gemini errors (also LC_ALL, LC_MESSAGES, LANG)
          GOOGLE_GENAI_USE_VERTEXAI  true: calls go to Vertex AI (set backend vertex)
          GOOGLE_CLOUD_PROJECT    the Vertex AI project (none: express mode with the API key)
          GOOGLE_CLOUD_LOCATION   the Vertex AI location (default global)
          GOOGLE_APPLICATION_CREDENTIALS  the credentials file (default: gcloud's ADC file)
          CLOUDSDK_CONFIG         gcloud's folder, where its ADC file is (default ~/.config/gcloud)
          HOME                    the home folder for the default folders
          PATH                    searched for sophon-plugin-NAME executables
          TERM                    empty or dumb: no line editor and no escape sequences
          NO_COLOR                set: no colour
          EDITRC                  the line editor's settings (default ~/.editrc)

        files:
          ~/.config/sophon/keys.json       saved API keys (mode 0600)
          ~/.config/sophon/sophonrc        commands run at start (not with --no-rc)
          ~/.config/sophon/settings.json   the saved model
          ~/.config/sophon/plugins/        external plugins
          ~/.config/sophon/mcp.json        the MCP servers (mcp add, mcp remove)
          ~/.config/sophon/prices.json     prices merged over the built-in table (cost)
          ~/.local/state/sophon/history    the REPL history
          ~/.local/state/sophon/logs.db    the logged Gemini exchanges (logs; not with --no-log)
          ~/.local/state/sophon/batches.json  the batch jobs' journal (batch)
          ~/.local/state/sophon/caches.json   the context caches' journal (cache)
          ~/.local/state/sophon/agents.json   the research jobs' journal (research, agents)
          ~/.local/state/sophon/embeddings.db  the stored embeddings (embed-multi, similar)
          ~/.local/state/sophon/tmp/       batch's temporary files (removed when it ends)
          ~/.local/state/sophon/media/     media the model replied with (set media-dir)

        """

    /// `help`: the commands grouped by plugin, one per line with its summary.
    static func commandList(_ registry: PluginRegistry) -> String {
        var text = "commands:\n"
        // The summaries start in one column; a usage longer than `widest` (`batch`, `tool`) has its
        // summary on the next line, so one long usage does not push every summary off the screen.
        let widest = 48
        let usages = registry.plugins.flatMap { $0.commands.map(\.usage.count) }.filter { $0 <= widest }
        let width = (usages.max() ?? 0) + 2
        for plugin in registry.plugins {
            text += "  [\(plugin.name)]\n"
            for command in plugin.commands {
                if command.usage.count > widest {
                    let indent = String(repeating: " ", count: 4 + width)
                    text += "    \(command.usage)\n\(indent)\(command.summary)\n"
                    continue
                }
                let padding = String(repeating: " ", count: max(1, width - command.usage.count))
                text += "    \(command.usage)\(padding)\(command.summary)\n"
            }
        }
        return text
    }
}
