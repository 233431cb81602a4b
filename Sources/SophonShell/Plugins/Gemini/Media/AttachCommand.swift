import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// `attach [--mime TYPE] FILE|URL...` / `attach clear` (docs/commands.md, "Media"): media parts
/// for the next `ask` or `chat`. Files go inline while the request's inline media stays within
/// 20 MB; a file past that is uploaded through the Files API (once per process for the same
/// bytes) and sent as `fileData`, with a progress bar on stderr when stderr is a terminal.
/// `https://` URLs are sent as `fileData` with the URL. The type is sniffed from the bytes
/// (images, PDF, text, audio, video); `--mime TYPE` overrides it for the files after it.
enum AttachCommand {
    /// The most inline media bytes one request carries.
    static let inlineLimit = GeminiInlineLimit.bytes

    /// The options of `attach`, declared once.
    static let declared = [
        CommandOption(
            name: "--mime", value: "TYPE", help: "the MIME type of the files after it (video/mp4)",
            missing: "a type such as video/mp4", repetition: .perOperand)
    ]

    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
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
        var inline = context.session.withGeminiState { state in
            state.attachments.compactMap { $0.inlineData?.data.count }.reduce(0, +)
        }
        let parsed = try CommandOption.parse(request, command: "attach", declared: declared)
        if let bad = parsed.given.first(where: { !$0.value.contains("/") }) {
            throw CommandFailure(
                kind: .usage,
                message: "attach: \(bad.spelling) needs a type such as video/mp4, not '\(bad.value)'")
        }
        var parts: [Part] = []
        var names: [String] = []
        for (index, word) in parsed.operands.enumerated() {
            let mime = parsed.value("--mime", beforeOperand: index)
            if word.hasPrefix("https://") {
                parts.append(Part(fileData: FileData(mimeType: mime, fileUri: word)))
                names.append(word)
                continue
            }
            if word.hasPrefix("http://") {
                throw CommandFailure(
                    kind: .mediaUnreadable, message: "attach: '\(word)': only https:// URLs can be sent")
            }
            let (part, inlineBytes) = try await filePart(
                word, mime: mime, inlineLeft: inlineLimit - inline, context: context, services: services)
            inline += inlineBytes
            parts.append(part)
            names.append(word)
        }
        guard !parts.isEmpty else { throw context.usageFailure(request.name) }
        let added = parts
        let addedNames = names
        context.session.withGeminiState { state in
            state.attachments += added
            state.attachmentNames += addedNames
        }
        return .none
    }

    /// The local file `name` as `attach` reads it, for `attach` and `cache create @FILE`: it
    /// exists, is not a folder, can be read and is not empty (the API refuses an empty part),
    /// and its type (`mime`, else sniffed from its bytes) is one the API takes; said before
    /// anything is sent, after `COMMAND: `.
    /// - Returns: the resolved path, the bytes and the MIME type.
    /// - Throws: ``CommandFailure`` `fileError` or `mediaUnreadable`.
    static func readFile(_ name: String, mime: String?, command: String, context: CommandContext) throws
        -> (path: String, data: Data, type: String)
    {
        let path = context.resolve(name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(kind: .fileError, message: "\(command): '\(path)': no such file")
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure(kind: .fileError, message: "\(command): '\(path)' is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(command): '\(path)': cannot be read")
        }
        guard !data.isEmpty else {
            throw CommandFailure(kind: .mediaUnreadable, message: "\(command): '\(path)' is empty")
        }
        guard let type = mime ?? GeminiMedia.sniffMediaType(data) else {
            let override = command == "attach" ? "; attach --mime TYPE FILE overrides" : ""
            throw CommandFailure(
                kind: .mediaUnreadable,
                message:
                    "\(command): '\(path)': unsupported type \(GeminiMedia.describeUnknownType(data)) "
                    + "(images, PDF, text, audio, video\(override))")
        }
        return (path, data, type)
    }

    /// The part for the file `name`: inline when it fits in `inlineLeft`, else uploaded.
    /// - Returns: the part and the inline bytes it adds.
    private static func filePart(
        _ name: String, mime: String?, inlineLeft: Int, context: CommandContext, services: GeminiServices
    ) async throws -> (Part, Int) {
        let (path, data, type) = try readFile(name, mime: mime, command: "attach", context: context)
        if data.count <= inlineLeft {
            return (.inlineData(mimeType: type, data: data), data.count)
        }
        if VertexSetup.refusal("files", session: context.session, services: services) != nil {
            // No Files API on Vertex AI: said before anything is sent (docs/vertex.md).
            throw CommandFailure(
                kind: .notOnVertex,
                message:
                    "attach: '\(path)' (\(data.count) bytes) does not fit inline (\(inlineLeft) bytes left of the "
                    + "request's 20 MB) and Vertex AI has no Files API to upload it to; use a gs:// URI")
        }
        let client = try GeminiCall.client(command: "attach", context: context, services: services)
        let bar = UploadProgressBar.forStandardError(
            io: context.io, name: (path as NSString).lastPathComponent)
        do {
            let (file, _) = try await client.uploadFileOnce(
                data: data, mimeType: type, displayName: (path as NSString).lastPathComponent,
                retryPolicy: context.session.withGeminiState { $0.retryPolicy }, progress: bar?.update)
            bar?.finish()
            var ready = file
            if file.state == "PROCESSING", let fileName = file.name {
                ready = try await client.waitUntilActive(fileName)
            } else if file.state == "FAILED" {
                throw GeminiFileError.processingFailed(name: file.name ?? path, message: file.error?.message)
            }
            guard let part = ready.part else {
                throw CommandFailure(
                    kind: .uploadFailed, message: "attach: the server gave no URI for '\(path)'")
            }
            return (part, 0)
        } catch let error as GeminiError {
            bar?.finish()
            throw GeminiCall.failure(error, context: context)
        } catch let error as GeminiFileError {
            bar?.finish()
            throw GeminiCall.failure(error)
        }
    }
}

/// An upload's progress on stderr, redrawn on one line (`clip.mp4  45%  9.0/20.0 MB  12.3 MB/s`),
/// only when stderr is a terminal whose `TERM` is set and not `dumb`; no colours. Ends with the
/// line cleared.
final class UploadProgressBar: Sendable {
    private let io: ShellIO
    private let name: String
    private let started = ContinuousClock.now
    private let drawn = Mutex(false)

    private init(io: ShellIO, name: String) {
        self.io = io
        self.name = name
    }

    /// A bar when the shell's stderr is the process's and a usable terminal; `nil` otherwise.
    static func forStandardError(
        io: ShellIO, name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> UploadProgressBar? {
        guard let sink = io.stderr as? FileDescriptorSink, sink.descriptor == STDERR_FILENO,
            isatty(STDERR_FILENO) == 1, let term = environment["TERM"], !term.isEmpty, term != "dumb"
        else { return nil }
        return UploadProgressBar(io: io, name: name)
    }

    /// Draws `sent` of `total` bytes.
    var update: @Sendable (Int, Int) -> Void {
        { [self] sent, total in
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            io.stderr.write("\r\u{1B}[K" + Self.line(name: name, sent: sent, total: total, seconds: seconds))
            drawn.withLock { $0 = true }
        }
    }

    /// Clears the bar's line.
    func finish() {
        if drawn.withLock({ $0 }) { io.stderr.write("\r\u{1B}[K") }
    }

    /// `NAME  45%  9.0/20.0 MB  12.3 MB/s` (MB = 10^6 bytes).
    static func line(name: String, sent: Int, total: Int, seconds: Double) -> String {
        let percent = total == 0 ? 100 : sent * 100 / total
        let rate = seconds > 0 ? Double(sent) / seconds / 1e6 : 0
        let numbers = String(
            format: "%3d%%  %.1f/%.1f MB  %.1f MB/s", percent, Double(sent) / 1e6, Double(total) / 1e6, rate)
        return "\(name)  \(numbers)"
    }
}
