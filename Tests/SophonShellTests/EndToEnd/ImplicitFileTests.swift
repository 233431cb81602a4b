import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files the shell reads without being named (`sophonrc`, `keys.json`, `settings.json`,
/// `logs.db`, `mcp.json`) are refused when they are not regular files, with a warning, and the run goes on;
/// files a user names (`source FILE`, `--replay TAPE`) are read as named, a FIFO included
/// (docs/files.md, "Files the shell reads"). The real binary, real FIFOs; every run is killed
/// after a generous timeout, so a hang fails the test instead of hanging CI.
@Suite(.childSlots) struct ImplicitFileTests {
    /// Long enough for a loaded machine, short enough that a hang ends the test.
    static let timeout: TimeInterval = 120

    /// Makes a FIFO called `name` in the shell's home folder; returns its path.
    static func fifo(_ shell: GeminiShell, _ name: String) throws -> String {
        let path = shell.home.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Writes `text` into the FIFO at `path` from another thread once a reader opens it;
    /// `unblock` lets the writer go when no reader ever came.
    final class FIFOWriter: Sendable {
        let path: String
        let done = DispatchSemaphore(value: 0)

        init(path: String, text: String) {
            self.path = path
            let done = done
            Thread {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)  // Waits for the reader.
                if descriptor >= 0 {
                    _ = text.utf8CString.withUnsafeBufferPointer {
                        write(descriptor, $0.baseAddress, $0.count - 1)
                    }
                    close(descriptor)
                }
                done.signal()
            }.start()
        }

        /// Whether the writer finished (a reader opened the FIFO); opens it for reading itself
        /// first, so the thread never stays blocked.
        func finish() async -> Bool {
            let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            defer { if reader >= 0 { close(reader) } }
            let done = done
            return await OffPool.run { done.wait(timeout: .now() + 30) == .success }
        }
    }

    /// A FIFO, a folder, a link to a device in place of `sophonrc`: skipped with one warning,
    /// and the run goes on with its status unchanged.
    @Test(arguments: [("fifo", "a FIFO"), ("folder", "a folder"), ("device", "a device")])
    func aSophonrcThatIsNotARegularFileIsSkippedWithAWarning(made: String, kind: String) async throws {
        let shell = try await GeminiShell()
        let path = shell.home.appendingPathComponent("sophonrc").path
        switch made {
        case "fifo": try #require(mkfifo(path, 0o600) == 0)
        case "folder":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        }
        let outcome = try await shell.run(["-c", "echo hi"], timeout: Self.timeout)
        #expect(
            outcome
                == .init(
                    stdout: "hi\n",
                    stderr: "warning: sophonrc '\(path)' is \(kind), not a regular file; not running it\n",
                    status: 0))
    }

    @Test func aFIFOAsKeysJSONIsReportedNotRead() async throws {
        let shell = try await GeminiShell()
        shell.key = nil
        let path = try Self.fifo(shell, "keys.json")
        let outcome = try await shell.run(["-c", "key show"], timeout: Self.timeout)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.contains("cannot read '\(path)': it is a FIFO, not a regular file"))
        #expect(outcome.status == 1)
    }

    @Test func aFIFOAsSettingsJSONLeavesTheDefaultModel() async throws {
        try await Self.expectWarning(
            fifo: "settings.json", command: "show model", stdout: "gemini-3.8-flash\n"
        ) {
            "settings file '\($0)' is a FIFO, not a regular file; not reading it"
        }
    }

    @Test func aFIFOAsTheLogDatabaseIsNotLoggedInto() async throws {
        try await Self.expectWarning(
            fifo: "logs.db", command: "ask hi", replies: [TrustTests.hello], stdout: "hello\n"
        ) {
            "not logged: logs: log database '\($0)' is a FIFO, not a regular file"
        }
    }

    @Test func aFIFOAsMCPJSONStartsNoServer() async throws {
        try await Self.expectWarning(
            fifo: "mcp.json", command: "mcp list",
            stdout: "(no MCP servers; add one with 'mcp add NAME -- COMMAND')\n"
        ) {
            "mcp.json '\($0)' is a FIFO, not a regular file; no MCP servers were read from it"
        }
    }

    /// Runs `command` with a FIFO called `file` in the home folder (the fake server answering
    /// `replies`) and expects `stdout`, the one stderr line `warning: ` + `warning(path)`, and
    /// status 0.
    static func expectWarning(
        fifo file: String, command: String, replies: [String] = [], stdout: String,
        sourceLocation: SourceLocation = #_sourceLocation, warning: (_ path: String) -> String
    ) async throws {
        let shell = try await GeminiShell()
        let path = try fifo(shell, file)
        if !replies.isEmpty { try await shell.server.script(replies) }
        let outcome = try await shell.run(["-c", command], timeout: timeout)
        #expect(
            outcome == .init(stdout: stdout, stderr: "warning: \(warning(path))\n", status: 0),
            sourceLocation: sourceLocation)
    }

    @Test func aFIFONamedBySourceIsRead() async throws {
        let shell = try await GeminiShell()
        let path = try Self.fifo(shell, "lines.sophon")
        let writer = FIFOWriter(path: path, text: "echo from the fifo\n")
        let outcome = try await shell.run(
            ["-c", "source lines.sophon", "-c", "echo after"], timeout: Self.timeout)
        #expect(await writer.finish())
        #expect(outcome == .init(stdout: "from the fifo\nafter\n", stderr: "", status: 0))
    }

    @Test func aTapeFromAFIFOReplaysAndATapeOnADeviceIsRefused() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([TrustTests.hello])
        let recorded = try await shell.run(["--record", "hi.tape", "-c", "ask hi"], timeout: Self.timeout)
        #expect(recorded == .init(stdout: "hello\n", stderr: "", status: 0))
        let tape = try #require(shell.read("hi.tape"))

        let path = try Self.fifo(shell, "piped.tape")
        let writer = FIFOWriter(path: path, text: tape)
        let replayed = try await shell.run(["--replay", "piped.tape", "-c", "ask hi"], timeout: Self.timeout)
        #expect(await writer.finish())
        #expect(replayed == .init(stdout: "hello\n", stderr: "", status: 0))

        let device = try await shell.run(["--replay", "/dev/zero", "-c", "ask hi"], timeout: Self.timeout)
        #expect(device.stdout == "")
        #expect(device.stderr.contains("cannot read the tape /dev/zero: it is a device, not a regular file"))
        #expect(device.status != 0)
    }
}
