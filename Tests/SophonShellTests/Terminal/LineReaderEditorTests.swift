import Dispatch
import Foundation
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonShell

/// A pseudo-terminal: the editor runs on the slave side; the test types into the master
/// side and a background thread collects everything the editor writes.
final class LineReaderPseudoTerminal: Sendable {
    let master: Int32
    let slave: Int32
    private let output = Mutex<[UInt8]>([])
    private let finished = Atomic<Bool>(false)
    private let drained = DispatchSemaphore(value: 0)

    init() throws {
        // posix_openpt, grantpt, unlockpt and ptsname are in glibc but not in Swift's Glibc
        // module (they need _XOPEN_SOURCE): look them up at run time.
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Control = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let openPT = unsafeBitCast(try #require(dlsym(nil, "posix_openpt")), to: Open.self)
        let grantPT = unsafeBitCast(try #require(dlsym(nil, "grantpt")), to: Control.self)
        let unlockPT = unsafeBitCast(try #require(dlsym(nil, "unlockpt")), to: Control.self)
        let nameOfPT = unsafeBitCast(try #require(dlsym(nil, "ptsname")), to: Name.self)
        master = openPT(O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        try #require(grantPT(master) == 0 && unlockPT(master) == 0)
        let name = try #require(nameOfPT(master).map { String(cString: $0) })
        slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        Thread { [self] in collectOutput() }.start()
    }

    private func collectOutput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !finished.load(ordering: .sequentiallyConsistent) {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            output.withLock { $0 += buffer[0..<count] }
        }
        drained.signal()
    }

    /// Everything the editor wrote so far, escape sequences included.
    var text: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// How many times `needle` occurs in the output.
    func occurrences(of needle: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// Waits (up to 300 s, to catch a hang) until `needle` occurs `count` times in the output.
    func wait(for needle: String, count: Int = 1) -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if occurrences(of: needle) >= count { return true }
            usleep(2000)
        }
        return false
    }

    /// Types keys once the prompt has appeared `promptCount` times (the editor is then in
    /// raw mode, so the kernel's line discipline does not edit them). If anything hangs,
    /// simulates Ctrl-C so that the editor returns and the test fails instead of hanging.
    func type(_ keys: String, afterPrompt prompt: String = "sophon> ", count promptCount: Int) {
        DispatchQueue.global().async { [self] in
            guard wait(for: prompt, count: promptCount) else {
                InterruptSignal.simulateInterrupt()
                return
            }
            // Wait for the editor to put the terminal in raw mode after drawing the prompt: on a
            // loaded machine keys written in the same instant can meet it still in canonical mode.
            waitForRawMode()
            let bytes = Array(keys.utf8)
            _ = write(master, bytes, bytes.count)
        }
    }

    /// Whether the terminal is in raw mode (no canonical line editing), as the editor sets it.
    var isRaw: Bool {
        var settings = termios()
        return tcgetattr(slave, &settings) == 0 && settings.c_lflag & tcflag_t(ICANON) == 0
    }

    /// Waits until the terminal is in raw mode; after 10 s goes on anyway (a reader that never
    /// sets raw mode then sees the keys in canonical mode, as it would without this wait).
    func waitForRawMode() {
        let deadline = ContinuousClock.now + .seconds(10)
        while !isRaw, ContinuousClock.now < deadline { usleep(1000) }
    }

    /// Runs one read of `reader` with a watchdog: if it has not returned after 300 s (keys lost
    /// to a race with the terminal's mode, say), simulates Ctrl-C so the read returns
    /// `.interrupted` and the test fails instead of hanging the whole run. The read blocks a
    /// thread of its own (``OffPool``), not one of the cooperative pool's.
    func guarded(_ reader: any LineSource, _ read: @escaping @Sendable (any LineSource) -> LineInput) async
        -> LineInput
    {
        let watchdog = DispatchWorkItem { InterruptSignal.simulateInterrupt() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        defer { watchdog.cancel() }
        let lent = LentReader(reader: reader)
        return await OffPool.run { read(lent.reader) }
    }

    func close() {
        finished.store(true, ordering: .sequentiallyConsistent)
        drained.wait()
        _ = Foundation.close(slave)
        _ = Foundation.close(master)
    }
}

extension LineReaderTerminalTests {
    /// The libedit editor driven through a pseudo-terminal, keys typed as a user would.
    @Suite struct Editor {
        let terminal: LineReaderPseudoTerminal
        let folder: String

        init() throws {
            terminal = try LineReaderPseudoTerminal()
            folder = try HistoryTestFolder.make()
        }

        private func makeEditor(history: HistoryFile? = nil, completer: LineCompleter? = nil) throws
            -> EditLineReader
        {
            try #require(
                EditLineReader(
                    historyFile: history, completer: completer, terminal: (terminal.slave, terminal.slave),
                    terminalType: "xterm", readsEditrc: false))
        }

        private func finish(_ editor: EditLineReader) {
            editor.close()
            terminal.close()
            HistoryTestFolder.remove(folder)
            InterruptSignal.restoreDefaultHandler()
        }

        @Test func showsThePromptAndReturnsTheTypedLine() async throws {
            let editor = try makeEditor()
            defer { finish(editor) }
            terminal.type("echo hi\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo hi"))
            terminal.type("\"\"\"\r", afterPrompt: "   ...> ", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "   ...> ") } == .line("\"\"\""))
        }

        @Test func aPasteIsInsertedLiterallyAndEachLineBreakEntersALine() async throws {
            let editor = try makeEditor(completer: { _, _ in ["completion-ran"] })
            defer { finish(editor) }
            terminal.type("echo \u{1B}[200~a\tb\rsecond\tline\u{1B}[201~\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo a\tb"))
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("second\tline"))
            #expect(terminal.text.contains("\u{1B}[?2004h"))
            #expect(!terminal.text.contains("completion-ran"))
        }

        @Test func ctrlLeftAndCtrlRightMoveByWord() async throws {
            let editor = try makeEditor()
            defer { finish(editor) }
            terminal.type("echo one two\u{1}\u{1B}[1;5C\u{1B}[1;5CX\u{1B}[1;5DY\r", count: 1)
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo YoneX two"))
        }

        @Test func backspaceDeletesACharacterNotAByte() async throws {
            let editor = try makeEditor()
            defer { finish(editor) }
            terminal.type("echo café\u{7F}\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo caf"))
            terminal.type("中文\u{8}x\r", count: 2)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("中x"))
        }

        @Test func ctrlDOnAnEmptyLineEndsInputAndNotOnAFullOne() async throws {
            let editor = try makeEditor()
            defer { finish(editor) }
            terminal.type("ab\u{4}\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("ab"))
            terminal.type("\u{4}", count: 2)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .endOfInput)
        }

        @Test func ctrlCDropsTheLineAndTheNextReadStartsEmpty() async throws {
            let editor = try makeEditor()
            defer { finish(editor) }
            DispatchQueue.global().async { [terminal] in
                guard terminal.wait(for: "sophon> ") else { return }
                _ = write(terminal.master, "partial", 7)
                _ = terminal.wait(for: "partial")
                InterruptSignal.simulateInterrupt()  // What the SIGINT handler does.
            }
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .interrupted)
            terminal.type("next\r", count: 2)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("next"))
        }

        @Test func upRecallsEntriesFromTheHistoryFile() async throws {
            let history = HistoryFile(path: folder + "/history")
            try history.append("echo one")
            try history.append("ask \"\"\"\nline two\n\"\"\"")
            let editor = try makeEditor(history: history)
            defer { finish(editor) }
            #expect(editor.historyLoadError == nil)
            terminal.type("\u{1B}[A\u{1B}[A\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo one"))
            terminal.type("\u{10}\r", count: 2)  // Ctrl-P: the multi-line entry, whole.
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") }
                    == .line("ask \"\"\"\nline two\n\"\"\""))
        }

        @Test func recordAddsToMemoryAndFileButSkipsLeadingSpaces() async throws {
            let history = HistoryFile(path: folder + "/history")
            let editor = try makeEditor(history: history)
            defer { finish(editor) }
            try editor.record("let x = 1")
            try editor.record(" key secret")
            try editor.record("let x = 1")
            terminal.type("\u{10}\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("let x = 1"))
            terminal.type("\u{10}\u{10}\r", count: 2)  // Only one entry: stays on it.
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("let x = 1"))
            #expect(try history.load() == ["let x = 1"])
        }

        @Test func tabCompletesAUniqueCandidateWithASpace() async throws {
            let calls = Mutex<[String]>([])
            let editor = try makeEditor { line, cursor in
                calls.withLock { $0.append("\(line)|\(cursor)") }
                return Self.matching(["save", "set", "show"], line, cursor)
            }
            defer { finish(editor) }
            terminal.type("sav\tx.sophon\r", count: 1)
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("save x.sophon"))
            terminal.type("echo sav \u{2}\u{2}\t\r", count: 2)  // Ctrl-B twice: the cursor is inside.
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("echo save v "))
            #expect(calls.withLock { $0 } == ["sav|3", "echo sav |7"])
        }

        @Test func tabInsertsTheCommonPrefixThenListsTheCandidates() async throws {
            let editor = try makeEditor { Self.matching(["gemini-2.5-flash", "gemini-2.5-pro"], $0, $1) }
            defer { finish(editor) }
            terminal.type("set model gem\t", count: 1)
            DispatchQueue.global().async { [terminal] in
                // libedit redraws only what changed: "gem", then "ini-2.5-" after a cursor move.
                guard terminal.wait(for: "ini-2.5-") else { return InterruptSignal.simulateInterrupt() }
                _ = write(terminal.master, "\t", 1)
                guard terminal.wait(for: "gemini-2.5-flash  gemini-2.5-pro") else {
                    return InterruptSignal.simulateInterrupt()
                }
                _ = write(terminal.master, "p\t\r", 3)
            }
            #expect(
                await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") }
                    == .line("set model gemini-2.5-pro "),
                "\(terminal.text.debugDescription)")
        }

        /// The candidates that start with the word before the cursor.
        private static func matching(_ words: [String], _ line: String, _ cursor: Int) -> [String] {
            let word = LineCompletion.word(before: String(line.prefix(cursor)))
            return words.filter { $0.hasPrefix(word) }
        }

        @Test func tabWithoutCandidatesChangesNothing() async throws {
            let editor = try makeEditor { _, _ in [] }
            defer { finish(editor) }
            terminal.type("xyz\t\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("xyz"))
        }

        @Test func aSecretIsReadWithoutEchoAndKeptOutOfHistory() async throws {
            var before = termios()
            try #require(tcgetattr(terminal.slave, &before) == 0)
            let editor = try makeEditor()
            defer { finish(editor) }
            terminal.type("key set\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("key set"))
            terminal.type("AIza-secret\r", afterPrompt: "API key: ", count: 1)
            #expect(
                await terminal.guarded(editor) { $0.readSecret(prompt: "API key: ") } == .line("AIza-secret"))
            var after = termios()
            #expect(tcgetattr(terminal.slave, &after) == 0)
            #expect(after.c_lflag == before.c_lflag)
            terminal.type("\u{10}\r", count: 2)  // Ctrl-P: no history entry to recall.
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line(""))
            #expect(terminal.occurrences(of: "AIza") == 0)
        }

        @Test func aPlainTerminalReadsASecretWithoutEcho() async throws {
            let prompts = Mutex<[String]>([])
            let reader = PlainLineReader(
                descriptor: terminal.slave, promptSink: { text in prompts.withLock { $0.append(text) } },
                interruptible: true)
            defer {
                terminal.close()
                HistoryTestFolder.remove(folder)
            }
            DispatchQueue.global().async { [terminal] in
                let deadline = ContinuousClock.now + .seconds(300)  // Catches a hang.
                while prompts.withLock({ $0.isEmpty }) {
                    guard ContinuousClock.now < deadline else { return InterruptSignal.simulateInterrupt() }
                    usleep(1000)
                }
                _ = write(terminal.master, "s3cret\n", 7)
            }
            #expect(await terminal.guarded(reader) { $0.readSecret(prompt: "API key: ") } == .line("s3cret"))
            #expect(terminal.occurrences(of: "s3cret") == 0)
        }

        @Test func closeRestoresTheTerminalAndLaterReadsEnd() async throws {
            var before = termios()
            try #require(tcgetattr(terminal.slave, &before) == 0)
            let editor = try makeEditor()
            terminal.type("x\r", count: 1)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .line("x"))
            var between = termios()
            #expect(tcgetattr(terminal.slave, &between) == 0)
            #expect(between.c_lflag == before.c_lflag)
            editor.close()
            var after = termios()
            #expect(tcgetattr(terminal.slave, &after) == 0)
            #expect(after.c_lflag == before.c_lflag)
            #expect(after.c_iflag == before.c_iflag)
            #expect(await terminal.guarded(editor) { $0.readLine(prompt: "sophon> ") } == .endOfInput)
            finish(editor)
        }
    }
}
