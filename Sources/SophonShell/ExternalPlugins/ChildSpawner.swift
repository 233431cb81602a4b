import CSpawn
import Dispatch
import Foundation
import Synchronization

/// Starts the shell's long-lived children (plugins, MCP servers) so that none outlives the
/// shell, even one killed with SIGKILL (issue 25 point 12).
///
/// Each child asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG` on Linux,
/// in `CSpawn`). The kernel takes "parent" to mean the thread that forked it, so every child
/// is forked from the one thread here, which lives as long as the process: a child started
/// from a pool thread would be killed when that idle thread ended. The child starts with no
/// signal blocked and every signal at its default action (commands run on pool threads, which
/// block most signals; the shell ignores SIGPIPE), and with only its three streams open.
final class ChildSpawner: Sendable {
    /// The one spawner of this process, its thread started on first use.
    static let shared = ChildSpawner()

    /// A fork or exec that failed, with its errno.
    struct Failure: Error {
        var errorNumber: Int32
    }

    private let work = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                let next = work.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                next?()
            }
        }
        thread.name = "sophon.spawner"
        thread.start()
    }

    /// Starts `executable` with `arguments` and exactly `environment`, its stdin, stdout and
    /// stderr the given descriptors (which stay open here; the caller closes them).
    /// - Returns: the child's process id.
    /// - Throws: ``Failure`` with the errno of the fork or exec.
    func spawn(
        _ executable: String, arguments: [String], environment: [String: String],
        stdin: Int32, stdout: Int32, stderr: Int32
    ) throws(Failure) -> Int32 {
        let outcome = Mutex<Result<Int32, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        work.withLock {
            $0.append {
                let result = Self.fork(executable, argv, envp, stdin, stdout, stderr)
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        ready.signal()
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw Failure(errorNumber: EINVAL) }
        return try result.get()
    }

    /// Runs `sophon_spawn` with C copies of the strings (freed after the fork).
    private static func fork(
        _ path: String, _ argv: [String], _ envp: [String], _ stdin: Int32, _ stdout: Int32, _ stderr: Int32
    ) -> Result<Int32, Failure> {
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = envp.map { strdup($0) } + [nil]
        defer { (cArgv + cEnvp).forEach { free($0) } }
        var errorNumber: Int32 = 0
        let pid = sophon_spawn(path, cArgv, cEnvp, stdin, stdout, stderr, &errorNumber)
        return pid > 0 ? .success(pid) : .failure(Failure(errorNumber: errorNumber))
    }
}
