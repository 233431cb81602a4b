import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the shell's child processes (external plugins, MCP servers, `sophon test` files)
/// with no signal blocked.
///
/// Commands run on the threads of Swift's concurrency pool, which block most signals; a child
/// spawned from one inherits that mask, so a plugin or MCP server would never receive SIGTERM,
/// SIGINT, SIGALRM or SIGHUP (a Python server's `signal.alarm` or a Node server's SIGTERM
/// handler never fired). The mask is cleared on the calling thread just for the spawn: the
/// shell's own signals go through process-wide `sigaction` handlers, so one that arrives on
/// this thread meanwhile is handled as on any other.
enum ChildProcessLauncher {
    /// Runs `process` (`Process.run()`) with an empty signal mask in the child.
    /// - Throws: what `Process.run()` throws.
    static func run(_ process: Process) throws {
        var empty = sigset_t()
        sigemptyset(&empty)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &empty, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }
}
