import Foundation
import SophonCore
import Synchronization

/// A script piped to `sophon` (docs/language.md, "Runs"), read as it arrives: each command is
/// handed out as soon as its last physical line has been read, so `sophon` can be driven as a
/// coprocess (write a command, read its answer, write the next), as `sqlite3` and `psql` are.
///
/// What it hands out is what parsing the whole input at once gives: it parses whole lines
/// only, from a command's first line on, with the line numbers of the whole input
/// (``ShellSource/firstLine``), and a command whose text ends inside an open construct (a
/// quote, a `"""` block, a trailing backslash: ``ShellInputStatus``, the REPL's rule) waits for
/// more lines. BOM, CRLF and lines that are not UTF-8 are handled as for a script file.
///
/// Reading never waits for more than the next line: each step reads once (blocking) and then
/// whatever has already arrived (at most ``stepLimit``), never more. Two checks of a script
/// file apply as the bytes arrive:
/// - a NUL byte in the first 8 KiB (``ScriptFile/binaryProbeLength``) makes the input binary:
///   nothing more runs. When the NUL had arrived before the first command was complete, which
///   is always the case for input written before `sophon` reads it, nothing runs at all;
/// - one command may be at most 64 MiB (``ScriptFile/maximumLength``); the input as a whole
///   has no bound, since only the command being read is kept.
final class StandardInputScript: Sendable {
    /// Why the script ended before its end of input.
    enum Failure: Error, Equatable {
        /// A NUL byte in the first 8 KiB.
        case binary
        /// A command longer than ``ScriptFile/maximumLength``; the line it starts on.
        case commandTooLong(line: Int)
        /// A read failed: `stdin: REASON`.
        case unreadable(String)

        /// The message after `sophon: `.
        var message: String {
            switch self {
            case .binary: "'\(StandardInputScript.name)' is not a text file"
            case .commandTooLong(let line):
                "'\(StandardInputScript.name)': the command at line \(line) is larger than "
                    + "\(ScriptFile.maximumLength) bytes"
            case .unreadable(let reason): reason
            }
        }

        /// The exit status: 2 for input that is not a script, 1 for a failed read (as when
        /// all of stdin was read at once).
        var exitStatus: Int32 {
            if case .unreadable = self { return ShellExitStatus.failure }
            return ShellExitStatus.usage
        }
    }

    /// The source name in error locations.
    static let name = "<stdin>"
    /// The most one step reads beyond its first read (what has already arrived).
    static let stepLimit = 1 << 20
    private static let chunkSize = 1 << 16
    /// An open command shorter than this is parsed again whenever lines arrive.
    private static let reparseFreely = 1 << 16

    private struct State {
        /// Bytes read and not yet handed out, from the start of a line (line ``firstLine``).
        var pending: [UInt8] = []
        var firstLine = 1
        /// How many bytes of `pending` were whole lines when they were last parsed and found
        /// to end inside a construct (nothing to parse again until more lines arrive).
        var parsedLength = 0
        /// Bytes read so far (for the binary check of the first 8 KiB).
        var bytesRead = 0
        var reachedEnd = false
        var failure: Failure?
        var chunk = [UInt8](repeating: 0, count: StandardInputScript.chunkSize)
    }

    private let descriptor: Int32
    private let parser: ShellParser
    private let state = Mutex(State())

    /// A script on `descriptor` (not closed), parsed by `parser`.
    init(descriptor: Int32, parser: ShellParser) {
        self.descriptor = descriptor
        self.parser = parser
    }

    /// Whether `descriptor` is a pipe or a socket, whose input arrives over time. A regular
    /// file or a device is read whole, as before (its size and binary checks come first).
    static func arrivesOverTime(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }

    /// Why the script stopped early, once ``nextCommands()`` returned nothing; `nil` when it
    /// reached its end.
    var failure: Failure? { state.withLock { $0.failure } }

    /// The next complete commands, in order, blocking until at least one is complete; empty at
    /// the end of the input or after a ``failure``.
    func nextCommands() -> [ParsedCommand] {
        state.withLock { state in
            while state.failure == nil {
                if state.pending.count > ScriptFile.maximumLength {
                    // What is kept is the command being read (and the start of the next line).
                    state.failure = .commandTooLong(line: state.firstLine)
                    break
                }
                if state.reachedEnd {
                    guard !state.pending.isEmpty else { return [] }
                    let source = ShellSource(
                        name: Self.name, bytes: state.pending, firstLine: state.firstLine)
                    state.pending = []
                    return parser.parse(source)
                }
                readStep(&state)
                guard state.failure == nil, !state.reachedEnd else { continue }
                let commands = completeCommands(&state)
                if !commands.isEmpty { return commands }
            }
            state.pending = []
            return []
        }
    }

    /// Parses the whole lines of `pending` when more arrived since the last parse, and takes
    /// out the commands that are complete; a last command that ends inside a construct stays.
    private func completeCommands(_ state: inout State) -> [ParsedCommand] {
        guard let newline = state.pending.lastIndex(of: 0x0A), newline + 1 > state.parsedLength else {
            return []
        }
        if state.parsedLength >= Self.reparseFreely, newline + 1 < 2 * state.parsedLength,
            arrives(withinMilliseconds: 20)
        {
            // A large open command (a long `"""` block) whose lines keep coming: parsing it again
            // for every read would cost time squared in its length, so it is parsed again when
            // it has doubled or when its writer pauses. The results are the same either way.
            return []
        }
        let lines = state.pending[...newline]
        var commands = parser.parse(ShellSource(name: Self.name, bytes: lines, firstLine: state.firstLine))
        var taken = lines.count
        var nextLine = state.firstLine + lines.count(where: { $0 == 0x0A })
        if ShellInputStatus(of: commands) == .needsContinuation, let open = commands.popLast() {
            taken = Self.offset(ofLine: open.line - state.firstLine, in: lines)
            nextLine = open.line
            state.parsedLength = lines.count - taken
        } else {
            state.parsedLength = 0
        }
        state.pending.removeFirst(taken)
        state.firstLine = nextLine
        return commands
    }

    /// The offset in `lines` where the line `index` (0-based) starts.
    private static func offset(ofLine index: Int, in lines: ArraySlice<UInt8>) -> Int {
        var remaining = index
        var position = lines.startIndex
        while remaining > 0, let newline = lines[position...].firstIndex(of: 0x0A) {
            position = newline + 1
            remaining -= 1
        }
        return position - lines.startIndex
    }

    /// One read that waits for input, then reads what has already arrived, up to
    /// ``stepLimit`` bytes, checking the first 8 KiB for a NUL byte as they come.
    private func readStep(_ state: inout State) {
        var stepRead = 0
        repeat {
            let count: Int
            do {
                count = try state.chunk.withUnsafeMutableBytes {
                    try FileDescriptorReader.read(descriptor, into: $0)
                }
            } catch let error as FileDescriptorError where [EAGAIN, EWOULDBLOCK].contains(error.errorNumber) {
                // A descriptor left non-blocking by whoever started us: wait, do not spin.
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, -1)
                continue
            } catch {
                state.failure = .unreadable("stdin: \(error)")
                return
            }
            guard count > 0 else {
                state.reachedEnd = true
                return
            }
            let probed = state.chunk[0..<min(count, max(ScriptFile.binaryProbeLength - state.bytesRead, 0))]
            if probed.contains(0) {
                state.failure = .binary
                return
            }
            state.pending.append(contentsOf: state.chunk[0..<count])
            state.bytesRead += count
            stepRead += count
        } while stepRead < Self.stepLimit && hasArrived()
    }

    /// Whether a read would return at once (input waiting, or the end of input).
    private func hasArrived() -> Bool { arrives(withinMilliseconds: 0) }

    /// Whether input (or the end of input) arrives within `milliseconds`.
    private func arrives(withinMilliseconds milliseconds: Int32) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, milliseconds) > 0
    }
}
