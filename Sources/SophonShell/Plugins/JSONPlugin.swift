import Foundation
import SophonCore
import SophonGemini

/// Offline JSON commands: `extract`.
struct JSONPlugin: ShellPlugin {
    let name = "json"

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "extract", usage: "extract [--schema SPEC] [--json] [TEXT | @FILE]",
                summary: "repair a model reply into strict JSON (stdin in one-command mode)",
                options: ExtractCommand.declared + [CommandOption.json],
                argumentStyle: .raw(RawArgumentSpec(wordPrefixes: ["@"])), takesJSONFlag: true,
                run: { request, context in try ExtractCommand.run(request, context: context) })
        ]
    }
}

/// `extract [--schema SPEC] [TEXT | @FILE]` (docs/commands.md): runs ``LLMJSONExtractor`` and
/// returns the value found (several values: one array of them, said on stderr); each repair
/// is listed on stderr. With a schema, the candidate that validates is chosen and coerced to
/// the schema's types, each coercion listed on stderr.
enum ExtractCommand {
    /// The largest input `extract` reads, in bytes (a reply is far smaller; this stops a
    /// mistaken `@/dev/zero` or a huge file from exhausting memory).
    static let maximumInputBytes = 256 * 1024 * 1024

    /// The options of `extract`.
    static let declared = [
        CommandOption(
            name: "--schema", value: "SPEC", help: "choose and coerce by this schema (inline or @FILE)",
            missing: "a SPEC")
    ]

    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(request.arguments, as: .leading, declared: declared)
        } catch {
            throw error.failure(command: "extract")
        }
        let schemaSpec = parsed.value("--schema")
        let words = parsed.operands
        let schema = try schemaSpec.map { try SchemaSource.load($0, command: "extract", context: context) }
        let arguments = Array(words) + (request.rawArgument.map { [$0] } ?? [])
        let found: [ExtractedJSON]
        do {
            switch try mappedInput(arguments, context: context) {
            case .mapped(let mapped):
                // The mapping goes away when this returns, before the value is printed.
                found = try LLMJSONExtractor().extract(
                    fromUTF8: mapped.bytes, releasingInput: { mapped.releaseResidentPages() })
            case .text(let text):
                found = try LLMJSONExtractor().extract(from: text)
            case nil:
                found = try LLMJSONExtractor().extract(from: try input(arguments, context: context))
            }
        } catch let error as LLMJSONExtractionError {
            throw CommandFailure(kind: .noJSONFound, message: "extract: \(error)")
        }
        if let schema {
            return try select(from: found, schema: schema.schema, context: context)
        }
        for repair in found.flatMap(\.repairs) where repair.kind.changesValue {
            context.io.printError(ShellMessages.repair("\(repair)"))
        }
        guard found.count == 1, let single = found.first else {
            context.io.printError(
                ShellMessages.note("found \(found.count) JSON values; printing them as one array"))
            return .lazyValue(LazyJSONValue(compactText: arrayText(of: found)))
        }
        // Printed from its text and kept as `$last` without building a tree (issue 20).
        return .lazyValue(LazyJSONValue(compactText: single.text))
    }

    /// The compact text of the array of the values found: `[` the texts joined by `,` `]`,
    /// exactly what ``JSONValue/compactText`` prints for that array.
    private static func arrayText(of found: [ExtractedJSON]) -> String {
        var text = "["
        text.reserveCapacity(found.reduce(2) { $0 + $1.text.utf8.count + 1 })
        for (index, value) in found.enumerated() {
            if index > 0 { text += "," }
            text += value.text
        }
        text += "]"
        return text
    }

    /// Schema-guided extraction: the first candidate that validates (after coercion).
    private static func select(
        from found: [ExtractedJSON], schema: GeminiSchema, context: CommandContext
    ) throws -> CommandResult {
        guard let selection = schema.selectCandidate(from: found.map(\.value)) else {
            throw CommandFailure(kind: .noJSONFound, message: "extract: no JSON value found in the text")
        }
        for repair in found[selection.index].repairs where repair.kind.changesValue {
            context.io.printError(ShellMessages.repair("\(repair)"))
        }
        if found.count > 1 {
            context.io.printError(
                "note: found \(found.count) JSON values; using value \(selection.index + 1), "
                    + (selection.isValid ? "the first that matches the schema" : "the closest to the schema"))
        }
        for coercion in selection.coercions {
            context.io.printError(ShellMessages.coerced("\(coercion)"))
        }
        guard selection.isValid else {
            for violation in selection.violations { context.io.printError(violation.description) }
            let count = selection.violations.count
            throw CommandFailure(
                kind: .schemaMismatch,
                message: "extract: no value matches the schema (\(count) violation\(count == 1 ? "" : "s"))")
        }
        if selection.coercions.isEmpty {
            // The candidate matched as it was found: print it from the engine's text.
            return .lazyValue(LazyJSONValue(compactText: found[selection.index].text))
        }
        return .value(selection.value)
    }

    /// The input as bytes, not copied into a `String` (issue 20), when it is a regular file of
    /// at least ``MappedInput/minimumFileSize`` bytes (`@FILE`, or stdin redirected from one)
    /// or a pipe on stdin, and well-formed UTF-8; `nil` for everything else, which
    /// ``input(_:context:)`` reads (a pipe that is not UTF-8 is refused or repaired here,
    /// as ``decode(_:from:context:)`` would, and given to ``input(_:context:)`` no more).
    /// - Throws: ``CommandFailure`` (`noJSONFound`) for a NUL byte.
    private static func mappedInput(_ arguments: [String], context: CommandContext) throws -> Input? {
        let joined = arguments.joined(separator: " ")
        let name: String
        let mapped: MappedInput?
        if joined.isEmpty {
            guard context.mode == .oneCommand, let descriptor = context.io.inputDescriptor else { return nil }
            name = "stdin"
            do throws(MappedInput.PipeFailure) {
                if let file = MappedInput.map(descriptor: descriptor, limit: maximumInputBytes) {
                    mapped = file
                } else {
                    mapped = try MappedInput.read(pipe: descriptor, limit: maximumInputBytes)
                }
            } catch .overLimit(let limit) {
                // The wording of the other commands that read stdin (ShellIO).
                throw CommandFailure(kind: .usage, message: "stdin: larger than \(limit / (1024 * 1024)) MiB")
            } catch .readError(let error) {
                throw CommandFailure(
                    kind: .fileError,
                    message: "extract: cannot read stdin: \(String(cString: strerror(error)))")
            }
        } else if let path = try filePath(joined, command: "extract", context: context) {
            name = path
            mapped = MappedInput.map(path: name, limit: maximumInputBytes)
        } else {
            return nil
        }
        guard let mapped else { return nil }
        if let nul = mapped.nulOffset { throw notText(name, nulOffset: nul) }
        guard mapped.isValidUTF8 else {
            context.io.printError(invalidUTF8Note(name))
            return .text(mapped.repairedText)
        }
        return .mapped(mapped)
    }

    /// An input read by ``mappedInput(_:context:)``.
    private enum Input {
        /// Well-formed UTF-8, not copied.
        case mapped(MappedInput)
        /// Text that was not well-formed, repaired.
        case text(String)
    }

    /// The text to read: the argument, `@FILE`, or all of stdin in one-command mode.
    static func input(_ arguments: [String], context: CommandContext) throws -> String {
        let joined = arguments.joined(separator: " ")
        if joined.isEmpty {
            guard context.mode == .oneCommand else {
                throw context.usageFailure("extract")
            }
            if let descriptor = context.io.inputDescriptor,
                let read = TextInputReader.read(
                    descriptor: descriptor, limit: maximumInputBytes, dropsByteOrderMark: true)
            {
                return try accept(read, from: "stdin", context: context)
            }
            return try decode(context.io.readAllInput(), from: "stdin", context: context)
        }
        if let path = try filePath(joined, command: "extract", context: context) {
            if let read = TextInputReader.read(path: path, limit: maximumInputBytes, dropsByteOrderMark: true)
            {
                return try accept(read, from: path, context: context)
            }
            return try decode(try readFile(path, command: "extract"), from: path, context: context)
        }
        return joined
    }

    /// The path of an `@FILE` argument, resolved with `context`; `nil` when `text` does not start
    /// with `@` (it is text).
    /// - Throws: ``CommandFailure`` (`usage`) when no file name follows the `@` (`extract @`,
    ///   `schema @ file.json`): a lone `@` is a missing file name, not text to read.
    static func filePath(_ text: String, command: String, context: CommandContext) throws -> String? {
        guard text.hasPrefix("@") else { return nil }
        let name = text.dropFirst()
        guard let first = name.first, !first.isWhitespace else {
            throw context.usageFailure(command, hint: "a file name must follow '@'")
        }
        return context.resolve(String(name))
    }

    /// The bytes of the file at `path`, refused by size before it is read; a device or pipe
    /// (size 0) is read up to `limit` + 1 bytes and refused past `limit`.
    /// - Throws: ``CommandFailure`` (`fileError`) for a missing file, a folder, a file over
    ///   `limit` bytes, or a read error.
    static func readFile(_ path: String, command: String, limit: Int = maximumInputBytes) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw CommandFailure(
                kind: .fileError, message: "\(command): cannot read '\(path)': no such file")
        }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw CommandFailure(kind: .fileError, message: "\(command): '\(path)' is a directory")
        }
        if let size = attributes[.size] as? Int, size > limit {
            throw CommandFailure(
                kind: .fileError,
                message: "\(command): '\(path)' is \(size) bytes; the limit is \(limit) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(
                kind: .fileError, message: "\(command): cannot read '\(path)': permission denied")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            // Bounded whatever the size said: devices and pipes report 0 (`@/dev/zero`).
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw CommandFailure(
                kind: .fileError, message: "\(command): cannot read '\(path)': \(error.localizedDescription)"
            )
        }
        guard data.count <= limit else {
            throw CommandFailure(
                kind: .fileError, message: "\(command): '\(path)' is more than \(limit) bytes, the limit")
        }
        return data
    }

    /// The text read straight from a regular file, refused or noted as ``decode(_:from:context:)``
    /// refuses or notes the same bytes.
    private static func accept(_ read: TextInputReader.Text, from name: String, context: CommandContext)
        throws
        -> String
    {
        if let nul = read.nulOffset { throw notText(name, nulOffset: nul) }
        if !read.isValidUTF8 { context.io.printError(invalidUTF8Note(name)) }
        return read.text
    }

    /// UTF-8 text from `data`; invalid bytes become U+FFFD, with a note saying so.
    /// - Throws: ``CommandFailure`` (`noJSONFound`) when `data` holds a NUL byte: a binary file,
    ///   which repairing would only turn into invented values.
    static func decode(_ data: Data, from name: String, context: CommandContext) throws -> String {
        if let nul = data.firstIndex(of: 0) {
            throw notText(name, nulOffset: nul - data.startIndex)
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        context.io.printError(invalidUTF8Note(name))
        return String(decoding: data, as: UTF8.self)
    }

    /// The refusal of a binary input: model text never holds a NUL byte, so this is a binary
    /// file, not a reply to repair.
    private static func notText(_ name: String, nulOffset: Int) -> CommandFailure {
        CommandFailure(
            kind: .noJSONFound, message: "extract: \(name) is not text (a NUL byte at offset \(nulOffset))")
    }

    private static func invalidUTF8Note(_ name: String) -> String {
        ShellMessages.note("\(name) is not valid UTF-8; invalid bytes were replaced with U+FFFD")
    }
}
