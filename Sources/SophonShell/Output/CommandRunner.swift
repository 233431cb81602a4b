import SophonCore

/// How results are printed (`set output pretty|json|raw`, `--json`).
enum OutputFormat: String, Sendable, Equatable {
    /// Indented JSON values.
    case pretty
    /// One JSON object per command (PRODUCT.md §5, "--json").
    case json
    /// Strings without quotes, other values as compact JSON.
    case raw
}

/// Runs one command and prints its result or error in the current output format.
struct CommandRunner: Sendable {
    var registry: PluginRegistry
    var context: CommandContext
    var output: OutputFormat

    /// Runs `request`; returns whether it succeeded.
    func run(_ request: CommandRequest) async -> Bool {
        do {
            guard let command = registry.command(named: request.name) else {
                throw registry.unknownCommand(request.name)
            }
            let result = try await command.run(request, context)
            print(result, for: request)
            return true
        } catch let failure as CommandFailure {
            report(failure, for: request)
        } catch {
            report(CommandFailure(kind: "internalError", message: "\(error)"), for: request)
        }
        return false
    }

    private func print(_ result: CommandResult, for request: CommandRequest) {
        switch (output, result) {
        case (.json, .none):
            context.io.printLine(envelope(request, ok: true, extra: []).compactText)
        case (.json, .value(let value)):
            context.io.printLine(
                envelope(request, ok: true, extra: [JSONMember("result", value)]).compactText)
        case (.pretty, .value(let value)):
            context.io.printLine(value.prettyText)
        case (.raw, .value(let value)):
            context.io.printLine(value.stringValue ?? value.compactText)
        case (_, .none):
            break
        }
    }

    private func report(_ failure: CommandFailure, for request: CommandRequest) {
        if output == .json {
            let error = JSONValue.object([
                JSONMember("kind", .string(failure.kind)), JSONMember("message", .string(failure.message)),
            ])
            context.io.printLine(
                envelope(request, ok: false, extra: [JSONMember("error", error)]).compactText)
        }
        context.io.printError("error: \(failure.message)")
    }

    private func envelope(_ request: CommandRequest, ok: Bool, extra: [JSONMember]) -> JSONValue {
        .object([JSONMember("command", .string(request.source)), JSONMember("ok", .bool(ok))] + extra)
    }
}
