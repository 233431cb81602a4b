import Foundation

/// The rule for an input file a command reads more than once (checked whole, then read again to
/// send; `run`, `batch submit`, `embed-multi`): a pipe (`run <(jq ...)`), a FIFO or a device is
/// refused before anything is sent. A pipe read again is empty, so `run` failed with `no result
/// for key`, `batch submit` created a job of no requests, and `/dev/zero` never ended.
enum RereadableInput {
    /// Refuses `path` when it is not a regular file or a folder (a missing file or a folder is
    /// left to the reader, which says so).
    /// - Parameters:
    ///   - path: the resolved path.
    ///   - name: the path as the user gave it, for the message.
    ///   - command: the command, which starts the message.
    /// - Throws: ``CommandFailure`` `fileError`: `COMMAND: 'INPUT' is a pipe, not a regular
    ///   file; it is read more than once (checked whole, then sent): save it to a file first`.
    static func require(_ path: String, shown name: String, command: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return
        case S_IFIFO: kind = "a pipe"
        case S_IFCHR, S_IFBLK: kind = "a device"
        default: kind = "not a regular file"
        }
        let what = kind.hasPrefix("not") ? kind : "\(kind), not a regular file"
        throw CommandFailure(
            kind: .fileError,
            message:
                "\(command): '\(name)' is \(what); it is read more than once (checked whole, then sent): "
                + "save it to a file first")
    }
}
