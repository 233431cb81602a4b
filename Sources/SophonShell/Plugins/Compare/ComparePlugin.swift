import SophonCore

/// Comparing models and prompts (docs/commands.md "compare").
struct ComparePlugin: ShellPlugin {
    let name = "compare"
    /// The Gemini plugin, whose services `compare` sends through.
    let gemini: GeminiPlugin

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "compare",
                usage:
                    "compare [--dry-run] [--json] [--html FILE] --models A,B[,...] PROMPT | compare --prompts A.prompt,B.prompt [--models A,B] [--data JSON|@FILE] [--html FILE] [--json]",
                summary: "the same turn on several models (or several prompt files) at once, side by side",
                options: CompareCommand.declared + [CommandOption.json],
                argumentStyle: .raw(CompareCommand.argument), takesJSONFlag: true,
                run: { [gemini] request, context in
                    guard let services = gemini.services else {
                        throw CommandFailure(
                            kind: .internalError, message: "compare: the Gemini services are not set up")
                    }
                    return try await CompareCommand.run(request, context: context, services: services)
                })
        ]
    }
}
