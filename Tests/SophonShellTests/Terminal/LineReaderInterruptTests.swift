import Dispatch
import Foundation
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonShell

/// Tests that use the process-wide SIGINT flag and pipe, one at a time: Ctrl-C handling
/// (this file) and the libedit editor on a pseudo-terminal (LineReaderEditorTests.swift).
@Suite(.serialized) enum LineReaderTerminalTests {}

/// Ctrl-C: real SIGINTs sent to this test process, with the interactive handler installed
/// for the duration of each test. (Not while libedit's `el_gets` runs: the editor's tests
/// simulate Ctrl-C instead, so no real signal depends on which handler is in place.)
extension LineReaderTerminalTests {
    @Suite struct Interrupts {
        init() { InterruptSignal.installInteractiveHandler() }

        @Test func ctrlCWhileAPlainTerminalReaderWaitsReturnsInterrupted() throws {
            defer { InterruptSignal.restoreDefaultHandler() }
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer {
                close(ends[0])
                close(ends[1])
            }
            let prompts = Mutex<[String]>([])
            let reader = PlainLineReader(
                descriptor: ends[0], promptSink: { text in prompts.withLock { $0.append(text) } },
                interruptible: true)
            // Sent from another thread while the reader blocks (or just before: it stays pending).
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { kill(getpid(), SIGINT) }
            #expect(reader.readLine(prompt: "sophon> ") == .interrupted)
            #expect(InterruptSignal.isPending == false)
            let line = Array("echo after\n".utf8)
            #expect(write(ends[1], line, line.count) == line.count)
            #expect(reader.readLine(prompt: "sophon> ") == .line("echo after"))
            #expect(prompts.withLock { $0 } == ["sophon> ", "\n", "sophon> "])
        }

        @Test func ctrlCDuringACommandCancelsItsTask() async throws {
            defer { InterruptSignal.restoreDefaultHandler() }
            let started = ContinuousClock.now
            await #expect(throws: CancellationError.self) {
                try await SignalMonitor.run { () async throws -> Int in
                    kill(getpid(), SIGINT)
                    try await Task.sleep(for: .seconds(600))
                    return 1
                }
            }
            #expect(ContinuousClock.now - started < .seconds(300))  // Catches a hang, not a timing.
        }

        /// Issue 14: the monitor and a prompt inside the command both wait for Ctrl-C; whichever
        /// takes it, the prompt returns `.interrupted`, the command is cancelled, and a line
        /// typed afterwards is never read as the prompt's answer. Repeated: the race is real.
        @Test func ctrlCAtAPromptInsideACommandAlwaysCancelsIt() async throws {
            defer { InterruptSignal.restoreDefaultHandler() }
            for _ in 0..<20 {
                var ends: [Int32] = [-1, -1]
                try #require(pipe(&ends) == 0)
                defer {
                    close(ends[0])
                    close(ends[1])
                }
                let input = ends[0]
                let writeEnd = ends[1]
                let outcome = try await SignalMonitor.run { () async -> [String] in
                    let reader = PlainLineReader(descriptor: input, interruptible: true)
                    DispatchQueue.global().async { kill(getpid(), SIGINT) }
                    let first = reader.readSecret(prompt: "API key: ")
                    let line = Array("echo typed later\n".utf8)
                    _ = write(writeEnd, line, line.count)
                    let second = reader.readSecret(prompt: "API key: ")
                    return ["\(first)", "\(second)", "\(Task.isCancelled)"]
                }
                #expect(outcome == ["interrupted", "interrupted", "true"])
                #expect(!InterruptSignal.isCommandInterrupted)
            }
        }

        @Test func aCommandThatFinishesReturnsItsValueAndStopsWatching() async throws {
            defer { InterruptSignal.restoreDefaultHandler() }
            let calls = Atomic<Int>(0)
            let monitor = SignalMonitor { calls.add(1, ordering: .sequentiallyConsistent) }
            let value = try await SignalMonitor.run { 42 }
            #expect(value == 42)
            monitor.stop()
            monitor.stop()
            InterruptSignal.simulateInterrupt()
            #expect(InterruptSignal.takePending())
            #expect(calls.load(ordering: .sequentiallyConsistent) == 0)
        }

        @Test func aMonitorCallsBackOncePerInterrupt() async throws {
            defer { InterruptSignal.restoreDefaultHandler() }
            let calls = Mutex<Int>(0)
            let called = DispatchSemaphore(value: 0)
            let monitor = SignalMonitor {
                calls.withLock { $0 += 1 }
                called.signal()
            }
            InterruptSignal.simulateInterrupt()
            #expect(await OffPool.run { called.wait(timeout: .now() + 300) } == .success)
            kill(getpid(), SIGINT)
            #expect(await OffPool.run { called.wait(timeout: .now() + 300) } == .success)
            monitor.stop()
            #expect(calls.withLock { $0 } == 2)
        }
    }
}
