import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `--record TAPE` writes, and how the run's tape takes its place (docs/tapes.md).
///
/// The run records into `TAPE.partial`; when it ends, the partial tape is renamed to TAPE,
/// except that an existing TAPE is replaced only by a run that ends with status 0: otherwise the
/// old TAPE stays and stderr names `TAPE.partial`. A killed run never reaches ``finish(_:status:io:)``,
/// so an existing TAPE is untouched and the readable prefix stays in `TAPE.partial`.
enum RecordedTape {
    /// The file a run recording to `tape` writes as it goes: `TAPE.partial`.
    static func partialPath(of tape: String) -> String { tape + ".partial" }

    /// Moves `TAPE.partial` over `tape` when the run may replace it (see the type's summary),
    /// or says on stderr where this run's tape is.
    ///
    /// - Returns: `status`, unchanged, or 1 when status was 0 and the rename failed (the
    ///   recording would otherwise be lost silently).
    static func finish(_ tape: String, status: Int32, io: ShellIO) -> Int32 {
        let partial = partialPath(of: tape)
        guard FileManager.default.fileExists(atPath: partial) else { return status }
        var target = tape
        do {
            target = try AtomicFile.resolvedTarget(tape)
        } catch {
            io.printError(ShellMessages.warning("\(error); this run's tape is in \(partial)"))
            return status == ShellExitStatus.success ? ShellExitStatus.failure : status
        }
        if status != ShellExitStatus.success, FileManager.default.fileExists(atPath: target) {
            io.printError(
                ShellMessages.note("the run failed: \(tape) was kept; this run's tape is in \(partial)"))
            return status
        }
        if rename(partial, target) == 0 { return status }
        // A symlinked TAPE may point to another file system: copy through the one writer.
        let code = errno
        do {
            guard code == EXDEV, let data = FileManager.default.contents(atPath: partial) else {
                throw SophonFileError(
                    path: partial, operation: .rename, errorNumber: code, destination: target)
            }
            try AtomicFile.write(data, to: URL(fileURLWithPath: target))
            _ = unlink(partial)
            return status
        } catch {
            io.printError(ShellMessages.warning("\(error); this run's tape is in \(partial)"))
            return status == ShellExitStatus.success ? ShellExitStatus.failure : status
        }
    }
}
