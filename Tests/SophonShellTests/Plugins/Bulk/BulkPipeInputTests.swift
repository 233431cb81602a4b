import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bulk input that cannot be read twice (breaker2): `run <(jq ...) -o out` failed with `no
/// result for key 'a'` (the pipe was empty when read again to send), and `batch submit
/// <(...)` created a job of no requests while its journal listed every key. Both are refused
/// before anything is sent.
@Suite(.childSlots) struct BulkPipeInputTests {
    @Test func aPipeAsInputIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        let fifo = shell.home.appendingPathComponent("in.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = try await shell.run([
            "--json", "-c", "run in.fifo -o out.jsonl", "-c", "batch submit in.fifo --name night",
        ])
        let reason = "is a pipe, not a regular file; it is read more than once (checked whole, then sent): "
        #expect(
            outcome.stdout == """
                {"command":"run in.fifo -o out.jsonl","ok":false,"error":{"kind":"fileError","message":"run: 'in.fifo' \(reason)save it to a file first"}}
                {"command":"batch submit in.fifo --name night","ok":false,"error":{"kind":"fileError","message":"batch submit: 'in.fifo' \(reason)save it to a file first"}}

                """)
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: shell.home.appendingPathComponent("out.jsonl.partial").path))
        #expect(shell.read("batches.json") == nil)
    }

    /// `embed-multi` reads its file twice too (checked whole, then embedded): a device such as
    /// `/dev/zero` never ended, a pipe would embed nothing. The same rule refuses both.
    @Test func embedMultiRefusesADeviceAndAPipe() async throws {
        let shell = try await GeminiShell()
        #expect(mkfifo(shell.home.appendingPathComponent("rows.fifo").path, 0o600) == 0)
        let outcome = try await shell.run(["-c", "embed-multi c /dev/zero", "-c", "embed-multi c rows.fifo"])
        let reason =
            "not a regular file; it is read more than once (checked whole, then sent): save it to a file first"
        #expect(
            outcome.stderr == """
                -c:1:1: error: embed-multi: '/dev/zero' is a device, \(reason)
                -c:2:1: error: embed-multi: 'rows.fifo' is a pipe, \(reason)

                """)
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("embeddings.db").path))
    }
}
