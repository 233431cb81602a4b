import Foundation

/// Where a command writes a file the user named (`save FILE`, `batch results -o FILE`,
/// `--html FILE`): in a folder that exists. Sophon's own files go through `AtomicFile`, which
/// makes their folders; a user's path with a typo must not become a new folder tree.
enum OutputFolder {
    /// Refuses `path` when its folder does not exist.
    /// - Parameters:
    ///   - path: the file to be written (resolved against the current directory already).
    ///   - command: starts the message (`save`, `batch results`, `logs: --html`).
    /// - Throws: ``CommandFailure`` (`fileError`): `COMMAND: the folder 'FOLDER' does not exist`.
    static func require(_ path: String, command: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw CommandFailure(
                kind: .fileError, message: "\(command): the folder '\(folder)' does not exist")
        }
    }
}
