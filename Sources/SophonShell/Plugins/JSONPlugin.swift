import Foundation
import SophonCore

/// Offline JSON commands: `extract` (and `validate` once schemas arrive).
struct JSONPlugin: ShellPlugin {
    let name = "json"

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "extract", usage: "extract [TEXT | @FILE]",
                summary: "repair a model reply into strict JSON (stdin in one-command mode)",
                argumentStyle: .raw,
                run: { request, context in
                    try ExtractCommand.run(request.arguments, context: context)
                })
        ]
    }
}

/// `extract [TEXT | @FILE]`: runs ``LLMJSONExtractor`` and returns the value found (several
/// values: one array of them, said on stderr); each repair is listed on stderr.
enum ExtractCommand {
    /// The largest input `extract` reads, in bytes (a reply is far smaller; this stops a
    /// mistaken `@/dev/zero` or a huge file from exhausting memory).
    static let maximumInputBytes = 256 * 1024 * 1024

    static func run(_ arguments: [String], context: CommandContext) throws -> CommandResult {
        if let option = arguments.first, option.hasPrefix("--") {
            throw CommandFailure(kind: "usage", message: "extract: unknown option '\(option)'")
        }
        let text = try input(arguments, context: context)
        let found: [ExtractedJSON]
        do {
            found = try LLMJSONExtractor().extract(from: text)
        } catch {
            throw CommandFailure(kind: "noJSONFound", message: "extract: \(error)")
        }
        for repair in found.flatMap(\.repairs) where repair.kind.changesValue {
            context.io.printError("repair: \(repair)")
        }
        guard found.count == 1, let single = found.first else {
            context.io.printError("note: found \(found.count) JSON values; printing them as one array")
            return .value(.array(found.map(\.value)))
        }
        return .value(single.value)
    }

    /// The text to read: the argument, `@FILE`, or all of stdin in one-command mode.
    static func input(_ arguments: [String], context: CommandContext) throws -> String {
        let joined = arguments.joined(separator: " ")
        if joined.isEmpty {
            guard context.mode == .oneCommand else {
                throw CommandFailure(kind: "usage", message: "usage: extract [TEXT | @FILE]")
            }
            return decode(context.io.readAllInput(), from: "stdin", context: context)
        }
        if joined.hasPrefix("@"), joined.count > 1 {
            let path = String(joined.dropFirst())
            return decode(try readFile(path), from: path, context: context)
        }
        return joined
    }

    static func readFile(_ path: String) throws -> Data {
        let url = URL(fileURLWithPath: path)
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw CommandFailure(kind: "fileError", message: "extract: cannot read '\(path)': no such file")
        }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw CommandFailure(kind: "fileError", message: "extract: '\(path)' is a directory")
        }
        if let size = attributes[.size] as? Int, size > maximumInputBytes {
            throw CommandFailure(
                kind: "fileError",
                message: "extract: '\(path)' is \(size) bytes; the limit is \(maximumInputBytes) bytes")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CommandFailure(kind: "fileError", message: "extract: cannot read '\(path)': \(error)")
        }
    }

    /// UTF-8 text from `data`; invalid bytes become U+FFFD, with a note saying so.
    static func decode(_ data: Data, from name: String, context: CommandContext) -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        context.io.printError("note: \(name) is not valid UTF-8; invalid bytes were replaced with U+FFFD")
        return String(decoding: data, as: UTF8.self)
    }
}
