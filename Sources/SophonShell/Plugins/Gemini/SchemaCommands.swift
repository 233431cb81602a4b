import Foundation
import SophonCore
import SophonGemini

/// `schema SPEC | @FILE | show [gemini|json-schema|--picoschema|--swift [NAME]] | picoschema TEXT | clear` and
/// `validate [JSON | @FILE]` (docs/commands.md).
enum SchemaCommands {
    /// The options of `schema show`.
    static let declared: [CommandOption] = [
        CommandOption(name: "--picoschema", help: "show: the schema beside its Picoschema"),
        CommandOption(
            name: "--swift",
            help: "show: the schema as a Swift Decodable struct (NAME, default Answer) for GeminiSchema(for:)"
        ),
    ]

    /// What Tab offers after `schema show`: its formats and options (the subcommands come from
    /// the usage line).
    static let completion = ArgumentCompletion.custom { earlier, _ in
        earlier == ["show"] ? .words(["gemini", "json-schema"] + declared.map(\.name)) : .none
    }

    static func schema(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        if let spec = request.rawArgument {
            guard request.arguments.isEmpty else {
                throw context.usageFailure("schema")
            }
            // `schema shw`: a misspelt subcommand, not a schema of one field named `shw`.
            if !spec.contains(where: \.isWhitespace),
                let close = Suggestions.closest(to: spec, in: ["show", "clear", "picoschema"]).first
            {
                throw context.usageFailure("schema", hint: "did you mean '\(close)'?")
            }
            return try set(spec, context: context)
        }
        switch request.arguments {
        case ["show"], ["show", "gemini"]:
            guard let schema = context.session.withGeminiState({ $0.schema }) else {
                throw CommandFailure(kind: .noSchema, message: "schema: no schema is set")
            }
            return .report(schema.jsonValue.prettyText, data: schema.jsonValue)
        case ["show", "json-schema"]:
            guard let schema = context.session.withGeminiState({ $0.schema }) else {
                throw CommandFailure(kind: .noSchema, message: "schema: no schema is set")
            }
            return .report(schema.jsonSchemaValue.prettyText, data: schema.jsonSchemaValue)
        case let words where words.first == "show" && words.contains("--swift"):
            let parsed: ParsedOptions
            do {
                parsed = try CommandOption.parse(Array(words.dropFirst()), declared: declared)
            } catch {
                throw error.failure(command: "schema")
            }
            guard parsed.operands.count <= 1, !parsed.has("--picoschema") else {
                throw context.usageFailure("schema")
            }
            guard let schema = context.session.withGeminiState({ $0.schema }) else {
                throw CommandFailure(kind: .noSchema, message: "schema: no schema is set")
            }
            let source = schema.swiftDeclaration(typeName: parsed.operands.first ?? "Answer")
            return .report(String(source.dropLast()), data: .string(source))
        case ["show", "--picoschema"]:
            guard let schema = context.session.withGeminiState({ $0.schema }) else {
                throw CommandFailure(kind: .noSchema, message: "schema: no schema is set")
            }
            return SchemaSideBySide.report(schema)
        case let words where words.first == "picoschema" && words.count > 1:
            let shown = try SchemaSideBySide.fromPicoschema(words.dropFirst().joined(separator: " "))
            for note in shown.notes { context.io.printError(ShellMessages.note("\(note)")) }
            return shown.result
        case ["clear"]:
            context.session.withGeminiState { $0.schema = nil }
            return .none
        case let words where words.first == "show":
            // A form `show` does not take: a misspelt option says so (with "did you mean"),
            // anything else is a usage error; never a schema named "show ...".
            do {
                _ = try CommandOption.parse(Array(words.dropFirst()), declared: declared)
            } catch {
                throw error.failure(command: "schema")
            }
            // `schema show jsonschema`: a format word near one `show` takes is suggested.
            let format = words.count == 2 ? words[1] : ""
            let close = Suggestions.closest(to: format, in: ["gemini", "json-schema"]).first
            throw context.usageFailure("schema", hint: close.map { "did you mean '\($0)'?" })
        case let words where words.count == 1 && words[0].hasPrefix("@"):
            return try set(words[0], context: context)
        case []:
            throw context.usageFailure("schema")
        default:
            return try set(request.arguments.joined(separator: " "), context: context)
        }
    }

    private static func set(_ spec: String, context: CommandContext) throws -> CommandResult {
        let loaded = try SchemaSource.load(spec, command: "schema", context: context)
        for note in loaded.notes { context.io.printError(ShellMessages.note("\(note)")) }
        let problems = loaded.schema.apiProblems()
        if let first = problems.first {
            throw CommandFailure(
                kind: .schemaError, message: "schema: the API would reject this schema: \(first)")
        }
        context.session.withGeminiState { $0.schema = loaded.schema }
        return .none
    }

    /// `validate [JSON | @FILE]`: `valid` on stdout, or one violation per line on stderr and a
    /// failed command. Leaves `$last`.
    static func validate(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let schema = context.session.withGeminiState { $0.schema }
        guard let schema else {
            throw CommandFailure(
                kind: .noSchema, message: "validate: no schema is set; set one with 'schema SPEC'")
        }
        let value: JSONValue
        let text = (request.arguments + (request.rawArgument.map { [$0] } ?? [])).joined(separator: " ")
        if text.isEmpty {
            // Read only here: `$last` kept as text is parsed on its first read.
            guard let last = context.session.variable("last") else {
                throw CommandFailure(
                    kind: .usage, message: "validate: nothing to validate ($last is not set)")
            }
            value = last
        } else if let path = try ExtractCommand.filePath(text, command: "validate", context: context) {
            if let read = TextInputReader.read(path: path, limit: ExtractCommand.maximumInputBytes),
                read.nulOffset == nil
            {
                value = try parse(read.text, name: path)  // Read in one go, no `Data` copy.
            } else {
                let data = try ExtractCommand.readFile(path, command: "validate")
                value = try parse(String(decoding: data, as: UTF8.self), name: path)
            }
        } else {
            value = try parse(text, name: "the argument")
        }
        let violations = schema.validate(value)
        guard !violations.isEmpty else {
            return .report(
                "valid",
                data: .object([JSONMember("valid", .bool(true)), JSONMember("violations", .array([]))]))
        }
        for violation in violations { context.io.printError(violation.description) }
        let listed = violations.map {
            JSONValue.object([
                JSONMember("path", .string($0.path)), JSONMember("message", .string($0.message)),
            ])
        }
        throw CommandFailure(
            kind: .validationFailed,
            message: "validate: \(violations.count) violation\(violations.count == 1 ? "" : "s")",
            details: [JSONMember("violations", .array(listed))])
    }

    private static func parse(_ text: String, name: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw CommandFailure(
                kind: .parseError,
                message:
                    "validate: \(name) is not valid JSON (\(error.line):\(error.column): \(error.message))")
        }
    }
}
