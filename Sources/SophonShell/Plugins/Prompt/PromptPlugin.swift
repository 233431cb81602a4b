import SophonCore

/// Prompt files (docs/prompts.md): `prompt FILE`, `prompt render`, `prompt save`.
struct PromptPlugin: ShellPlugin {
    let name = "prompt"
    /// The Gemini plugin, whose services `prompt FILE` sends through.
    let gemini: GeminiPlugin

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "prompt",
                usage:
                    "prompt [--dry-run] [--json] FILE [NAME=VALUE...] [--data JSON|@FILE] | prompt save [--force] FILE | prompt render FILE [--data JSON|@FILE] [--options JSON|@FILE] [--schemas JSON|@FILE] [--tools JSON|@FILE]",
                summary: "ask with a Dotprompt file, or render it to Dotprompt's rendered-prompt JSON",
                options: PromptRenderCommand.declared + [PromptAskCommand.declared[1]]
                    + PromptSaveCommand.declared + [CommandOption.json],
                // A prompt file, or `save`/`render` and then a file (the outline adds the
                // subcommands beside the files).
                completion: .files,
                takesJSONFlag: true,
                run: { [gemini] request, context in
                    var words = request.arguments
                    if words.first == request.name { words.removeFirst() }
                    if words.first == "save" {
                        return try PromptSaveCommand.run(request, context: context)
                    }
                    if words.first == "render" {
                        return try PromptRenderCommand.run(request, context: context)
                    }
                    guard let services = gemini.services else {
                        throw CommandFailure(
                            kind: .internalError, message: "prompt: the Gemini services are not set up")
                    }
                    return try await PromptAskCommand.run(request, context: context, services: services)
                })
        ]
    }
}
