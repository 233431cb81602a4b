import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes a file the user named (`save FILE`, `batch results -o FILE`,
/// `--html FILE`): in a folder that exists. Sophon's own files go through `AtomicFile`, which
/// makes their folders; a user's path with a typo must not become a new folder tree.
enum OutputFolder {
    /// Refuses `path` when its folder does not exist.
    /// - Parameters:
    ///   - path: the file to be written (resolved against the current directory already).
    ///   - command: starts the message (`save`, `batch results`, `logs: --html`).
    ///   - kind: the failure's kind.
    /// - Throws: ``CommandFailure`` (`fileError` unless `kind` says otherwise):
    ///   `COMMAND: the folder 'FOLDER' does not exist`.
    static func require(_ path: String, command: String, kind: ShellErrorKind = .fileError) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw CommandFailure(kind: kind, message: "\(command): the folder '\(folder)' does not exist")
        }
    }

    /// Refuses a report file (`--html FILE`, `--junit FILE`) before the work that fills it (the
    /// requests `compare` sends and pays for, the files `test` runs), so that work is never done
    /// and then lost: an empty name (not the current folder), a path ``AtomicFile`` would not
    /// replace (a folder, FIFO or device, through symbolic links too), a folder that does not
    /// exist, or one where no file can be made.
    /// - Parameters:
    ///   - given: the path as typed.
    ///   - option: the option that named it (`--html`).
    ///   - command: starts the message (`compare`, `test`, `logs`).
    ///   - kind: the failure's kind (`test` reports these as `usage` errors).
    ///   - resolve: resolves `given` against the current folder (``CommandContext/resolve(_:)``).
    /// - Returns: `given` resolved, as the report is then written to.
    /// - Throws: ``CommandFailure``: `COMMAND: OPTION needs a file name`, `COMMAND: OPTION:
    ///   cannot replace 'PATH': it is a folder, not a regular file`, `COMMAND: OPTION: the folder
    ///   'FOLDER' does not exist`, `COMMAND: OPTION: cannot write in the folder 'FOLDER': REASON`.
    @discardableResult
    static func requireWritable(
        _ given: String, option: String, command: String, kind: ShellErrorKind = .fileError,
        resolve: (String) -> String
    ) throws -> String {
        guard !given.isEmpty else {
            throw CommandFailure(kind: kind, message: "\(command): \(option) needs a file name")
        }
        let path = resolve(given)
        let target: String
        do {
            target = try AtomicFile.resolvedTarget(path)
        } catch {
            throw CommandFailure(kind: kind, message: "\(command): \(option): \(error)")
        }
        try require(target, command: "\(command): \(option)", kind: kind)
        // A file can be made there (the report is written beside itself, then renamed): tried
        // now, so a read-only place fails before the work, not after.
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        let probe = folder + "/.sophon-report-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(
                kind: kind,
                message: "\(command): \(option): cannot write in the folder '\(folder)': \(reason)")
        }
        close(descriptor)
        unlink(probe)
        return path
    }
}
