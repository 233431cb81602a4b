import SophonCore
import SophonGemini

/// The Gemini commands (PRODUCT.md §4): models, keys, schemas, asking and chatting, media,
/// the retry policy and token counts. `services` is `nil` only in the registry used to read
/// the command line, before the run's services exist.
struct GeminiPlugin: ShellPlugin {
    let name = "gemini"
    let services: GeminiServices?

    private func needingServices(
        _ run:
            @escaping @Sendable (CommandRequest, CommandContext, GeminiServices) async throws -> CommandResult
    ) -> @Sendable (CommandRequest, CommandContext) async throws -> CommandResult {
        let services = services
        return { request, context in
            guard let services else {
                throw CommandFailure(
                    kind: "internalError", message: "\(request.name): the Gemini services are not set up")
            }
            return try await run(request, context, services)
        }
    }

    var commands: [PluginCommand] {
        let prompt = RawArgumentSpec(valueOptions: ["--model"])
        return [
            PluginCommand(
                name: "ask", usage: "ask [--model ID] [--no-schema] PROMPT",
                summary: "one turn: structured JSON with a schema, else text (streamed)",
                argumentStyle: .raw(prompt),
                run: needingServices { try await AskCommands.ask($0, context: $1, services: $2) }),
            PluginCommand(
                name: "chat", usage: "chat [--model ID] MESSAGE",
                summary: "a turn in the conversation (the schema stays in force)",
                argumentStyle: .raw(prompt),
                run: needingServices { try await AskCommands.chat($0, context: $1, services: $2) }),
            PluginCommand(
                name: "history", usage: "history", summary: "print the conversation",
                run: { _, context in AskCommands.history(context: context) }),
            PluginCommand(
                name: "reset", usage: "reset", summary: "clear the conversation (settings stay)",
                run: { _, context in AskCommands.reset(context: context) }),
            PluginCommand(
                name: "schema", usage: "schema SPEC | @FILE | show [gemini|json-schema] | clear",
                summary: "set the answer schema: { title: string, year: integer, tags: [string] }",
                argumentStyle: .raw(RawArgumentSpec(wordKeywords: ["show", "clear"], wordPrefixes: ["@"])),
                run: { request, context in try SchemaCommands.schema(request, context: context) }),
            PluginCommand(
                name: "validate", usage: "validate [JSON | @FILE]",
                summary: "check a value (default $last) against the schema",
                argumentStyle: .raw(RawArgumentSpec(wordPrefixes: ["@"])),
                run: { request, context in try SchemaCommands.validate(request, context: context) }),
            PluginCommand(
                name: "attach", usage: "attach FILE [FILE...] | attach clear",
                summary: "media for the next ask or chat (PNG, JPEG, WebP, GIF, HEIC, PDF, text)",
                run: { request, context in try AttachCommand.run(request, context: context) }),
            PluginCommand(
                name: "retry-policy", usage: "retry-policy [default | minimal | KEY=VALUE...]",
                summary:
                    "show or change retries: attempts base cap jitter retry-after max-wait fallback downscale",
                run: { request, context in try RetryPolicyCommand.run(request, context: context) }),
            PluginCommand(
                name: "tokens", usage: "tokens [--model ID] TEXT", summary: "count the tokens of TEXT",
                argumentStyle: .raw(prompt),
                run: needingServices { try await AskCommands.tokens($0, context: $1, services: $2) }),
            PluginCommand(
                name: "models", usage: "models [--live]",
                summary: "the model catalog; --live: what the key can reach",
                run: needingServices { try await ModelCommands.models($0, context: $1, services: $2) }),
            PluginCommand(
                name: "key", usage: "key set | show | delete | path",
                summary: "store, show (masked), delete the API key, or print where it is stored",
                run: needingServices { try KeyCommands.run($0, context: $1, services: $2) }),
        ]
    }
}
