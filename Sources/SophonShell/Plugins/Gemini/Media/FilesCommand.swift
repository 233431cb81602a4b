import Foundation
import SophonCore
import SophonGemini

/// `files` / `files show NAME` / `files delete NAME|--all` (docs/commands.md, "Media"): the
/// Files API's files of the key's project. `files` prints one file per line (`NAME  STATE
/// SIZE  MIME  DISPLAY-NAME`) and is the array of file objects as a value; `show` is one file
/// object; `delete` changes state and prints nothing on stdout.
enum FilesCommand {
    /// The options of `files`, declared once.
    static let declared = [CommandOption(name: "--all", help: "with delete: every file of the key's project")]

    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        if let refusal = VertexSetup.refusal("files", session: context.session, services: services) {
            throw refusal
        }
        let parsed = try CommandOption.parse(request, command: "files", declared: declared)
        let words = parsed.operands
        let all = parsed.has("--all")
        let wellFormed =
            all
            ? words == ["delete"]
            : words.isEmpty
                || (words.count == 2 && ["show", "delete"].contains(words[0]) && !words[1].isEmpty)
        guard wellFormed else { throw context.usageFailure(request.name) }
        let client = try GeminiCall.client(command: "files", context: context, services: services)
        do {
            switch words.first {
            case nil:
                let files = try await client.listAllFiles { warning in
                    context.io.printError(ShellMessages.warning("files: " + warning))
                }
                return .reply(
                    CallReply(
                        value: .array(files.map(json)), display: files.isEmpty ? "(no files)" : table(files),
                        envelope: []))
            case "show" where words.count == 2:
                return .value(json(try await client.getFile(words[1])))
            case "delete" where all:
                for file in try await client.listAllFiles() {
                    if let name = file.name { try await client.deleteFile(name) }
                }
                return .none
            case "delete" where words.count == 2:
                try await client.deleteFile(words[1])
                return .none
            default:
                throw context.usageFailure(request.name)
            }
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        } catch let error as GeminiFileError {
            throw GeminiCall.failure(error)
        }
    }

    /// The file as the API sent it (fields in the API's order; absent ones left out).
    static func json(_ file: GeminiFile) -> JSONValue {
        let fields: [(String, String?)] = [
            ("name", file.name), ("displayName", file.displayName), ("mimeType", file.mimeType),
            ("sizeBytes", file.sizeBytes), ("createTime", file.createTime), ("updateTime", file.updateTime),
            ("expirationTime", file.expirationTime), ("sha256Hash", file.sha256Hash), ("uri", file.uri),
            ("downloadUri", file.downloadUri), ("state", file.state), ("source", file.source),
            ("error", file.error?.message),
        ]
        return .object(fields.compactMap { key, value in value.map { JSONMember(key, .string($0)) } })
    }

    /// One line per file: name, state, size in bytes, MIME type, display name.
    static func table(_ files: [GeminiFile]) -> String {
        files.map { file in
            [
                file.name ?? "?", file.state ?? "-", file.sizeBytes.map { "\($0) bytes" } ?? "-",
                file.mimeType ?? "-",
                file.displayName ?? "",
            ].joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
