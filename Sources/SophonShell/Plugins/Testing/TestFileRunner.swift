import Foundation
import SophonCore
import SophonGemini

/// Runs one script for `sophon test` in a child process of the same `sophon` binary
/// (`sophon --no-rc --no-history [--replay|--record TAPE] -- FILE`), so every file has its own
/// session and files can run side by side; then reads its outcome from what the child printed:
/// the closing tally (`N passed, N failed`) on stdout and the located errors
/// (`FILE:LINE: error: ...`) on stderr (docs/commands.md, "test"; docs/language.md, "Errors").
struct TestFileRunner: Sendable {
    /// What to do with tapes.
    enum TapeMode: Sendable, Equatable {
        /// Replay `NAME.tape` when present, else run live.
        case replayPresent
        /// Replay `NAME.tape` when present, else record it.
        case recordMissing
        /// Ignore tapes.
        case live
    }

    /// The `sophon` executable the children run.
    var executable: String
    var tapes: TapeMode
    /// Whether each result carries its exchanges, read from the tape after the run
    /// (`test --html`).
    var exchanges = false

    /// The binary of this process (`/proc/self/exe` on Linux).
    static var currentExecutable: String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return path
            }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The arguments of the child that runs `path` (on `model`, with `--models`: `--model
    /// MODEL` and the tape `NAME.MODEL.tape`), and the tape that will hold its exchanges: the
    /// one it replays or records, else, when ``exchanges`` is on, `scratch` (recorded there by
    /// the same recorder as any tape: the one record of what a run sent and got).
    func arguments(for path: String, model: String? = nil, scratch: String? = nil) -> (
        arguments: [String], tape: String?
    ) {
        var arguments = ["--no-rc", "--no-history"]
        if let model { arguments += ["--model", model] }
        // `custom:ID` runs as `--model custom:ID` and tapes as NAME.ID.tape.
        let tape = TestDiscovery.tape(
            for: path,
            model: model.map { $0.hasPrefix("custom:") ? String($0.dropFirst("custom:".count)) : $0 })
        let hasTape = FileManager.default.fileExists(atPath: tape)
        var kept: String?
        switch tapes {
        case .replayPresent where hasTape, .recordMissing where hasTape:
            arguments += ["--replay", tape]
            kept = tape
        case .recordMissing:
            arguments += ["--record", tape]
            kept = tape
        case .replayPresent, .live:
            if exchanges, let scratch {
                arguments += ["--record", scratch]
                kept = scratch
            }
        }
        return (arguments + ["--", path], exchanges ? kept : nil)
    }

    /// Runs `path` and reports how it went. Never throws: a child that cannot start is a failed
    /// file with the reason.
    func run(_ path: String, model: String? = nil) async -> TestFileResult {
        let started = ContinuousClock.now
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        let errors = folder.appendingPathComponent("stderr")
        let costFile = folder.appendingPathComponent("cost")
        let (arguments, tape) = arguments(
            for: path, model: model, scratch: folder.appendingPathComponent("exchanges.tape").path)
        let status: Termination
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in [output, errors] {
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
                }
            }
            let stdout = try FileHandle(forWritingTo: output)
            let stderr = try FileHandle(forWritingTo: errors)
            defer {
                try? stdout.close()
                try? stderr.close()
            }
            status = try await Self.launch(
                executable, arguments: arguments, stdout: stdout, stderr: stderr,
                costFile: costFile.path)
        } catch {
            return TestFileResult(
                path: path, expects: 0, seconds: Self.seconds(since: started),
                failures: [.init(location: path, message: "cannot run: \(error)")], model: model)
        }
        let seconds = Self.seconds(since: started)
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let complaints = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        var result = Self.result(
            path: path, status: status, stdout: printed, stderr: complaints, seconds: seconds)
        result.model = model
        result.cost = (try? String(contentsOf: costFile, encoding: .utf8)).flatMap {
            try? JSONValue(parsing: $0)
        }
        if let tape {
            result.exchanges = (try? GeminiTape(contentsOf: URL(fileURLWithPath: tape)))?.exchanges ?? []
        }
        // `--record-missing` of a file that failed before any exchange (no key, a script error)
        // keeps no tape: an empty one would be replayed next time and fail there, and the next
        // `--record-missing` would not record it again.
        // (Under `--record-missing`, `--record` names only the file's own tape, never a scratch.)
        if tapes == .recordMissing, let index = arguments.firstIndex(of: "--record"),
            !result.failures.isEmpty,
            let recorded = try? GeminiTape(contentsOf: URL(fileURLWithPath: arguments[index + 1])),
            recorded.exchanges.isEmpty, recorded.toolCalls.isEmpty
        {
            try? FileManager.default.removeItem(atPath: arguments[index + 1])
        }
        return result
    }

    /// The outcome of a child that printed `stdout` and `stderr` and ended with `status`.
    static func result(path: String, status: Termination, stdout: String, stderr: String, seconds: Double)
        -> TestFileResult
    {
        var failures: [TestFileResult.Failure] = []
        var lineCache: [String: [Substring]] = [:]
        for line in stderr.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let located = LocatedError(String(line)) else { continue }
            let prefix = "expect: "
            if located.message.hasPrefix(prefix) {
                let lines =
                    lineCache[located.file]
                    ?? ((try? String(contentsOfFile: located.file, encoding: .utf8)) ?? "").split(
                        separator: "\n", omittingEmptySubsequences: false)
                lineCache[located.file] = lines
                let text = located.line <= lines.count ? lines[located.line - 1] : "expect"
                failures.append(
                    .init(
                        location: located.location,
                        expectation: text.trimmingCharacters(in: .whitespacesAndNewlines),
                        message: String(located.message.dropFirst(prefix.count))))
            } else {
                failures.append(.init(location: located.location, message: located.message))
            }
        }
        if status != .exited(0), failures.isEmpty {
            let reason = stderr.split(separator: "\n").first.map {
                $0.hasPrefix("sophon: ") ? String($0.dropFirst("sophon: ".count)) : String($0)
            }
            failures.append(.init(location: path, message: reason ?? status.description))
        }
        return TestFileResult(path: path, expects: tally(stdout), seconds: seconds, failures: failures)
    }

    /// The number of expectations in the closing tally, the last line of stdout
    /// (`N passed, N failed`, or `{"summary": ...}` after `set output json`); 0 without one.
    static func tally(_ stdout: String) -> Int {
        guard let last = stdout.split(separator: "\n").last else { return 0 }
        if last.hasPrefix("{"), let value = try? JSONValue(parsing: String(last)),
            let passed = value["summary"]?["passed"]?.doubleValue,
            let failed = value["summary"]?["failed"]?.doubleValue
        {
            return Int(passed + failed)
        }
        let words = last.split(separator: " ")
        guard words.count == 4, words[1] == "passed,", words[3] == "failed", let passed = Int(words[0]),
            let failed = Int(words[2])
        else { return 0 }
        return passed + failed
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// How a child ended.
    enum Termination: Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(signal: Int32)

        /// `exited with status 3` or `killed by signal 9`.
        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Starts the child with stdin from `/dev/null` through ``ChildSpawner`` (so it dies with
    /// this shell, however the shell ends: `timeout 60 sophon test` leaves no child behind) and
    /// waits for it on a thread of its own, not on the concurrency pool.
    private static func launch(
        _ executable: String, arguments: [String], stdout: FileHandle, stderr: FileHandle, costFile: String
    ) async throws -> Termination {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard null >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(null) }
        let pid: Int32
        do {
            pid = try ChildSpawner.shared.spawn(
                executable, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.merging([
                    CostLedger.costFileVariable: costFile
                ]) {
                    _, given in given
                },
                stdin: null, stdout: stdout.fileDescriptor, stderr: stderr.fileDescriptor)
        } catch {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(error.errorNumber))])
        }
        return await withCheckedContinuation { continuation in
            let waiter = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(
                    returning: signal != 0 ? .killed(signal: signal) : .exited((status >> 8) & 0xFF))
            }
            waiter.name = "sophon.test.\(pid)"
            waiter.start()
        }
    }
}

/// A located error line of a script run: `FILE:LINE: error: MESSAGE` or
/// `FILE:LINE:COL: error: MESSAGE` (docs/language.md, "Errors and locations").
private struct LocatedError {
    var file: String
    var line: Int
    var location: String
    var message: String

    init?(_ text: String) {
        guard let marker = text.range(of: ": error: ") else { return nil }
        let location = String(text[..<marker.lowerBound])
        var pieces = location.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count >= 2 else { return nil }
        if pieces.count >= 3, Int(pieces[pieces.count - 1]) != nil, Int(pieces[pieces.count - 2]) != nil {
            pieces.removeLast()
        }
        guard let line = Int(pieces.removeLast()), line >= 1, !pieces.isEmpty else { return nil }
        file = pieces.joined(separator: ":")
        self.line = line
        self.location = location
        message = String(text[marker.upperBound...])
    }
}

/// The outcome of one script under `sophon test` (docs/commands.md, "test").
struct TestFileResult: Sendable, Equatable {
    /// One failed expectation or error of the file.
    struct Failure: Sendable, Equatable {
        /// `FILE:LINE` (or `FILE:LINE:COL` for a parse error; `FILE` alone for a file that did not
        /// run).
        var location: String
        /// The `expect` line as written, for a failed expectation; `nil` for an error.
        var expectation: String?
        /// The message: for an expectation, both values (`expected 2015 == 2016`).
        var message: String

        /// Whether this is a failed expectation rather than an error.
        var isExpectation: Bool { expectation != nil }
    }

    /// The script's path as shown.
    var path: String
    /// How many expectations it evaluated (passed and failed).
    var expects: Int
    /// Wall-clock time of the run, in seconds.
    var seconds: Double
    /// What went wrong, in the order it happened; empty when the file passed.
    var failures: [Failure]
    /// The model it ran on (`test --models`); `nil` for the session's.
    var model: String?
    /// What its calls cost: a JSON number of US dollars or `"unknown"`; `nil` when it made none.
    var cost: JSONValue?
    /// Its exchanges with the API, in order, as its tape holds them (``TestFileRunner/exchanges``;
    /// empty otherwise).
    var exchanges: [GeminiTapeExchange] = []

    /// Whether the file passed: it ran to the end with status 0 and nothing failed.
    var passed: Bool { failures.isEmpty }
}
