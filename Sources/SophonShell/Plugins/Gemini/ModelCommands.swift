import Foundation
import SophonCore
import SophonGemini

/// `set model ID [--save]` and `models [--live]` (docs/commands.md).
enum ModelCommands {
    /// `set model PRESET | ID | custom:ID [--save]`: changes the session's model; `--save`
    /// also writes it to `settings.json` as the default for new sessions. Says on stderr when
    /// the name resolved to another model or is used as a custom model.
    static func set(_ words: [String], context: CommandContext, services: GeminiServices?) throws
        -> CommandResult
    {
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(words, declared: [saveOption])
        } catch {
            throw error.failure(command: "set model")
        }
        let save = parsed.has("--save")
        let names = parsed.operands
        guard names.count == 1, let name = names.first, !name.isEmpty else {
            throw CommandFailure(
                kind: .usage, message: ShellMessages.usage("set model PRESET | ID | custom:ID [--save]"))
        }
        let requested = GeminiModel(selection: name)
        guard GeminiModel.isWellFormedID(requested.id) else {
            throw CommandFailure(
                kind: .invalidModelID, message: "set model: " + ShellMessages.invalidModelID(name))
        }
        if let notice = customModelNotice(name) {
            context.io.printError(notice)
        } else if requested.id != name {
            context.io.printError(ShellMessages.note("\(name) is \(requested.id)"))
        }
        if requested.isDeprecated, let successor = requested.successor {
            context.io.printError(
                ShellMessages.note("\(requested.id) is deprecated; its successor is \(successor.id)"))
        }
        // Saved first: a default that cannot be written fails the command and leaves the
        // session's model as it was.
        if save, let services {
            do {
                try JSONFileGeminiModelStore(fileURL: services.paths.settingsFile).save(requested.id)
            } catch {
                throw CommandFailure(kind: .fileError, message: "set model: cannot save: \(error)")
            }
        }
        context.session.withGeminiState { $0.settings.model = requested.id }
        return .none
    }

    /// `set model ID --save`: also the default for new sessions; a misspelt `--sav` gets its
    /// "did you mean" from the option parser.
    static let saveOption = CommandOption(
        name: "--save", help: "also make it the default for new sessions (settings.json)")

    /// The notice for a model name that is not a preset's (`set model`, `--model`):
    /// `note: 'ID' is not in the catalog; using it as a custom model`, with the closest preset
    /// suggested when one is near; `nil` for a preset.
    static func customModelNotice(_ name: String) -> String? {
        guard case .custom(let id) = GeminiModel(selection: name) else { return nil }
        let close = name.hasPrefix("custom:") ? nil : GeminiModel.closestPreset(to: name)
        return customModelNotice(id: id, closest: close?.id)
    }

    /// The same notice for a model outside `catalog` (`set embed-model`, whose catalog is the
    /// embedding models), the closest of `catalog` suggested; `nil` for a model in it. A model
    /// of the main catalog (`gemini-2.5-flash`) is in the catalog, so the notice says what it is
    /// not: `note: 'gemini-2.5-flash' is not an embedding model (gemini-embedding-001,
    /// gemini-embedding-2); using it as a custom model`.
    static func customModelNotice(_ name: String, catalog: [String]) -> String? {
        let model = GeminiModel(selection: name)
        let id = model.id
        guard !catalog.contains(id) else { return nil }
        if case .custom = model {
        } else {
            return "note: '\(id)' is not an embedding model (\(catalog.joined(separator: ", "))); "
                + "using it as a custom model"
        }
        let close = name.hasPrefix("custom:") ? nil : Suggestions.closest(to: id, in: catalog).first
        return customModelNotice(id: id, closest: close)
    }

    /// `note: 'ID' is not in the catalog; using it as a custom model (did you mean 'CLOSE'?)`.
    private static func customModelNotice(id: String, closest: String?) -> String {
        "note: '\(id)' is not in the catalog; using it as a custom model" + ShellMessages.didYouMean(closest)
    }

    /// The options of `models`.
    static let declared = [CommandOption(name: "--live", help: "list what the key can reach")]

    /// `models`: the catalog with successors and free-tier marks; `models --live`: what the
    /// key can reach, one model per line, and the presets the server does not serve.
    static func models(
        _ request: CommandRequest, context: CommandContext, services: GeminiServices
    ) async throws -> CommandResult {
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(request.arguments, declared: declared)
        } catch {
            throw error.failure(command: "models")
        }
        guard parsed.operands.isEmpty, parsed.given.count <= 1 else { throw context.usageFailure("models") }
        guard parsed.has("--live") else {
            let current = context.session.geminiSettings.model
            return .report(catalog(current: current), data: catalogData(current: current))
        }
        return try await live(context: context, services: services)
    }

    static func catalog(current: String) -> String {
        let width = GeminiModel.allPresets.map(\.id.count).max() ?? 0
        var lines = ["models (F = free tier, P = paid only; * = this session's model):"]
        for model in GeminiModel.allPresets {
            let mark = model.hasFreeTier ? "F" : model.isPaidOnly ? "P" : " "
            let current = model.id == current ? "*" : " "
            var line = "\(current) \(mark) \(model.id.padding(toLength: width, withPad: " ", startingAt: 0))"
            line += "  \(model.presetName ?? "")"
            if model.isDeprecated { line += " (deprecated)" }
            if let successor = model.successor { line += " -> \(successor.id)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The catalog as `--json` data: `{"models": [{"id", "name", "freeTier", "paidOnly",
    /// "deprecated", "successor", "current"}]}`.
    static func catalogData(current: String) -> JSONValue {
        .object([
            JSONMember(
                "models",
                .array(
                    GeminiModel.allPresets.map { model in
                        .object([
                            JSONMember("id", .string(model.id)),
                            JSONMember("name", model.presetName.map(JSONValue.string) ?? .null),
                            JSONMember("freeTier", .bool(model.hasFreeTier)),
                            JSONMember("paidOnly", .bool(model.isPaidOnly)),
                            JSONMember("deprecated", .bool(model.isDeprecated)),
                            JSONMember("successor", model.successor.map { .string($0.id) } ?? .null),
                            JSONMember("current", .bool(model.id == current)),
                        ])
                    }))
        ])
    }

    private static func live(context: CommandContext, services: GeminiServices) async throws -> CommandResult
    {
        if let refusal = try VertexSetup.expressRefusal(
            "models --live", session: context.session, services: services)
        {
            throw refusal
        }
        let client = try GeminiCall.client(command: "models", context: context, services: services)
        let served: [GeminiModelInfo]
        do {
            let listing = try await client.listModelPages(pageSize: 1000)
            if let warning = listing.warning { context.io.printError(ShellMessages.warning(warning)) }
            served = listing.items
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
        var lines: [String] = []
        var rows: [JSONValue] = []
        var servedIDs: Set<String> = []
        for info in served {
            let id = GeminiModel(id: info.id).id
            servedIDs.insert(id)
            var line = id + (info.displayName.map { "  \($0)" } ?? "")  // Vertex AI names none
            line += "  in \(info.inputTokenLimit.map(String.init) ?? "?")"
            line += " / out \(info.outputTokenLimit.map(String.init) ?? "?")"
            if let preset = GeminiModel(id: id).presetName { line += "  (\(preset))" }
            lines.append(line)
            rows.append(
                .object([
                    JSONMember("id", .string(id)),
                    JSONMember("displayName", info.displayName.map(JSONValue.string) ?? .null),
                    JSONMember(
                        "inputTokenLimit", info.inputTokenLimit.map { .number(JSONNumber($0)) } ?? .null),
                    JSONMember(
                        "outputTokenLimit", info.outputTokenLimit.map { .number(JSONNumber($0)) } ?? .null),
                ]))
        }
        let missing = GeminiModel.allPresets.filter { !servedIDs.contains($0.id) }
        if !missing.isEmpty {
            lines.append("not served:")
            lines += missing.map { "  \($0.id)  (\($0.presetName ?? ""))" }
        }
        return .report(
            lines.joined(separator: "\n"),
            data: .object([
                JSONMember("models", .array(rows)),
                JSONMember("notServed", .array(missing.map { .string($0.id) })),
            ]))
    }
}

/// The `--models A,B` of `compare`, `test` and `run` (docs/commands.md): catalog IDs or preset
/// names, or `custom:ID` for any other model, in the order given.
enum ModelList {
    /// The models of `--models A,B`, in order: catalog IDs or preset names, or `custom:ID`.
    /// - Throws: ``CommandFailure`` (`invalidModelID`) for a name that is neither, with the
    ///   closest catalog name, before anything is sent.
    static func parse(_ list: String, command: String) throws -> [GeminiModel] {
        try CommaList.items(list, command: command, option: "--models", noun: "model IDs").map { name in
            if name.hasPrefix("custom:") {
                let model = GeminiModel(selection: name)
                guard GeminiModel.isWellFormedID(model.id) else {
                    throw CommandFailure(
                        kind: .invalidModelID, message: "\(command): " + ShellMessages.invalidModelID(name))
                }
                return model
            }
            guard let preset = GeminiModel(presetName: name) else {
                throw CommandFailure(
                    kind: .invalidModelID, message: unknownModel(name, command: command))
            }
            return preset
        }
    }

    /// `COMMAND: unknown model 'NAME' (did you mean 'ID'?); the catalog has ...; write custom:ID
    /// for another model` (`compare`, `test --models`, `run --models`).
    static func unknownModel(_ name: String, command: String) -> String {
        let hint = GeminiModel.closestPreset(to: name).map { " (did you mean '\($0.id)'?)" } ?? ""
        return "\(command): unknown model '\(name)'\(hint); the catalog has "
            + GeminiModel.allPresets.map(\.id).joined(separator: ", ") + "; write custom:ID for another model"
    }
}
