import SophonCore

/// Prompt files (PRODUCT §12, docs/prompts.md): `prompt render`.
struct PromptPlugin: ShellPlugin {
    let name = "prompt"

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "prompt",
                usage:
                    "prompt render FILE [--data JSON|@FILE] [--options JSON|@FILE] [--schemas JSON|@FILE] [--tools JSON|@FILE]",
                summary: "render a Dotprompt file to Dotprompt's rendered-prompt JSON (nothing sent)",
                options: PromptRenderCommand.declared,
                run: { request, context in try PromptRenderCommand.run(request, context: context) })
        ]
    }
}
