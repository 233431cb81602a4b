import Foundation
import SophonGemini

/// `attach FILE [FILE...]` / `attach clear` (docs/commands.md): inline media parts for the next
/// `ask` or `chat`, MIME type sniffed from the bytes, refused by size before reading.
enum AttachCommand {
    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard !request.arguments.isEmpty else {
            let names = context.session.withGeminiState { $0.attachmentNames }
            return .text(names.isEmpty ? "(nothing attached)" : names.joined(separator: "\n"))
        }
        if request.arguments == ["clear"] {
            context.session.withGeminiState {
                $0.attachments = []
                $0.attachmentNames = []
            }
            return .none
        }
        var parts: [Part] = []
        for name in request.arguments {
            let path = context.resolve(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure(kind: .fileError, message: "attach: '\(path)': no such file")
            }
            guard !isDirectory.boolValue else {
                throw CommandFailure(kind: .fileError, message: "attach: '\(path)' is a directory")
            }
            do {
                parts.append(try GeminiMedia.inlinePart(contentsOf: URL(fileURLWithPath: path)))
            } catch let error as GeminiError {
                throw GeminiCall.failure(error, context: context)
            }
        }
        let added = parts
        try context.session.withGeminiState { state in
            let total = (state.attachments + added).compactMap { $0.inlineData?.data.count }.reduce(
                0, +)
            let limit = 20 * 1024 * 1024
            guard total <= limit else {
                throw CommandFailure(
                    kind: .mediaTooLarge,
                    message:
                        "attach: \(total) bytes of inline media in all; the limit is \(limit) bytes per request"
                )
            }
            state.attachments += added
            state.attachmentNames += request.arguments
        }
        return .none
    }
}
