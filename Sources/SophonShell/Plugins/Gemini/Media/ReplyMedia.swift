import Foundation
import SophonCore
import SophonGemini

/// Media in replies (`inlineData`: images, audio) saved to the media folder, never dropped
/// (docs/commands.md, "Media"): `set media-dir DIR`, else `media/` in the state folder. Each
/// file is named after its kind and the first 16 hex digits of its SHA-256 (`image-3f2a....png`),
/// so the same bytes land in the same file.
enum ReplyMedia {
    /// One saved part, as `--json` lists it.
    struct Saved: Sendable, Equatable {
        var mimeType: String
        var path: String
        var bytes: Int

        var json: JSONValue {
            .object([
                JSONMember("mimeType", .string(mimeType)), JSONMember("path", .string(path)),
                JSONMember("bytes", .integer(bytes)),
            ])
        }
    }

    /// Saves every `inlineData` part of `parts` (thought parts included: they are media too),
    /// printing `saved image/png, 412 KB: PATH` on stderr for each.
    /// - Returns: what was saved, in part order.
    /// - Throws: ``CommandFailure`` (`fileError`) when a file cannot be written.
    static func save(_ parts: [Part], context: CommandContext, services: GeminiServices) throws -> [Saved] {
        let blobs = parts.compactMap(\.inlineData)
        guard !blobs.isEmpty else { return [] }
        let folder = folderURL(context: context, services: services)
        var saved: [Saved] = []
        for blob in blobs {
            let digest = String(SHA256.hexDigest(blob.data).prefix(16))
            let kind = blob.mimeType.split(separator: "/").first.map(String.init) ?? "media"
            let url = folder.appendingPathComponent("\(kind)-\(digest).\(fileExtension(blob.mimeType))")
            do {
                if context.session.geminiSettings.mediaDir == nil {
                    try PrivateFiles.write(blob.data, to: url, folder: .sophon)
                } else {
                    // A folder the user chose (`set media-dir`): their umask, like `run -o OUT`.
                    try AtomicFile.write(blob.data, to: url, folderPermissions: 0o755)
                }
            } catch {
                throw CommandFailure(kind: .fileError, message: "saving reply media: \(error)")
            }
            let item = Saved(mimeType: blob.mimeType, path: url.path, bytes: blob.data.count)
            context.io.printError(
                ShellMessages.savedMedia(mimeType: item.mimeType, bytes: item.bytes, path: item.path))
            saved.append(item)
        }
        return saved
    }

    /// The `--json` member `media` for `saved` (none when nothing was saved).
    static func members(_ saved: [Saved]) -> [JSONMember] {
        saved.isEmpty ? [] : [JSONMember("media", .array(saved.map(\.json)))]
    }

    /// The media folder: `set media-dir` (relative to the script's folder), else `media/` in the
    /// state folder (`SOPHON_HOME/media`).
    static func folderURL(context: CommandContext, services: GeminiServices) -> URL {
        if let dir = context.session.geminiSettings.mediaDir {
            return URL(fileURLWithPath: context.resolve(dir), isDirectory: true)
        }
        return services.paths.stateFolder.appendingPathComponent("media", isDirectory: true)
    }

    /// A file extension for a MIME type (`image/png` -> `png`; unknown types: `bin`).
    static func fileExtension(_ mimeType: String) -> String {
        let known = [
            "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif",
            "image/heic": "heic", "audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3",
            "audio/mp3": "mp3",
            "audio/ogg": "ogg", "audio/flac": "flac", "audio/aac": "aac", "audio/mp4": "m4a",
            "video/mp4": "mp4",
            "application/pdf": "pdf", "text/plain": "txt",
        ]
        let base = mimeType.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if let base, let ext = known[base] { return ext }
        if let base, base.hasPrefix("audio/l16") || base.hasPrefix("audio/pcm") { return "pcm" }
        return "bin"
    }
}
