import Foundation
import Synchronization

/// The MCP server processes still running, killed when the shell exits (docs/mcp.md,
/// "Lifetime"): `exit(3)` runs the handler registered on first use, so no server outlives the
/// shell, whatever the server does with its stdin.
final class MCPChildProcesses: Sendable {
    /// The one list of this process.
    static let shared = MCPChildProcesses()

    private let pids = Mutex(Set<Int32>())

    private init() {
        atexit {
            MCPChildProcesses.shared.killAll()
        }
    }

    /// Remembers a started server.
    func add(_ pid: Int32) { _ = pids.withLock { $0.insert(pid) } }

    /// Forgets a server that ended.
    func remove(_ pid: Int32) { _ = pids.withLock { $0.remove(pid) } }

    /// Kills (SIGKILL) every server still running.
    func killAll() {
        for pid in pids.withLock({ $0 }) { _ = kill(pid, SIGKILL) }
    }
}
