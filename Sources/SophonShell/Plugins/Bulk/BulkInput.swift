import Foundation
import SophonCore
import SophonGemini

/// A bulk input file (JSON Lines, docs/running-many-prompts.md), read as a stream: checked
/// whole before anything is sent, then read again lazily to feed the calls and to write the
/// output in input order.
struct BulkInput: Sendable {
    /// The most bad lines one failure lists.
    static let listedIssues = 20

    /// The path opened (resolved against the command's folder).
    var path: String
    /// The path as the user gave it, for messages.
    var name: String
    /// The command reading it (`run`, `batch`), which starts its error messages.
    var command = "run"
    /// What its lines are: prompts and requests, or a prompt file's inputs (`run --prompt`).
    var form = BulkInputLine.Form.prompts

    /// Refuses an OUTPUT that is this input file (the same file by device and inode, through
    /// any path or link): the results would replace the prompts.
    /// - Parameters:
    ///   - output: the resolved output path.
    ///   - shown: the output as the user gave it, for the message.
    /// - Throws: ``CommandFailure`` `usage`: `COMMAND: OUTPUT 'O' is the input file 'I'; ...`.
    func refuseAsOutput(_ output: String, shown: String) throws {
        var inputStatus = stat()
        var outputStatus = stat()
        guard stat(path, &inputStatus) == 0, stat(output, &outputStatus) == 0,
            inputStatus.st_dev == outputStatus.st_dev, inputStatus.st_ino == outputStatus.st_ino
        else { return }
        throw CommandFailure(
            kind: .usage,
            message:
                "\(command): OUTPUT '\(shown)' is the input file '\(name)'; write the results to another file"
        )
    }

    /// Calls `body` with every non-blank line, in order.
    /// - Throws: ``CommandFailure`` when the file cannot be opened, what `body` throws, and
    ///   ``BulkInputIssue`` for a malformed line.
    func forEachLine(_ body: (BulkInputLine) throws -> Void) throws {
        let reader = try BulkLineReader(path: path, command: command)
        while let line = reader.next() {
            if let parsed = try BulkInputLine.parse(line, form: form) { try body(parsed) }
        }
    }

    /// Reads the whole file once and refuses it when any line is bad: every bad line (up to
    /// ``listedIssues``) with its 1-based physical line number, duplicate keys with the line of
    /// their first use, and the lines `each` refuses with an `invalidInput` ``CommandFailure``
    /// (its message: a prompt file's input that fails its schema).
    /// - Returns: the keys in input order, as text and as written (a string or a number).
    /// - Throws: ``CommandFailure`` `invalidInput` listing the bad lines, or `fileError`; any
    ///   other error of `each` as it is, at once (a prompt file that does not render).
    func check(each: (BulkInputLine) throws -> Void = { _ in }) throws -> [(text: String, value: JSONValue)] {
        try RereadableInput.require(path, shown: name, command: command)
        let reader = try BulkLineReader(path: path, command: command)
        var firstLine: [String: Int] = [:]
        var keys: [(text: String, value: JSONValue)] = []
        var issues: [BulkInputIssue] = []
        var issueCount = 0
        while let line = reader.next() {
            do {
                guard let parsed = try BulkInputLine.parse(line, form: form) else { continue }
                if let first = firstLine[parsed.key] {
                    throw BulkInputIssue(
                        line: line.number, message: "duplicate key '\(parsed.key)' (first on line \(first))")
                }
                firstLine[parsed.key] = line.number
                keys.append((parsed.key, parsed.keyValue))
                try each(parsed)
            } catch let issue as BulkInputIssue {
                issueCount += 1
                if issues.count < Self.listedIssues { issues.append(issue) }
            } catch let failure as CommandFailure where failure.kind == .invalidInput {
                issueCount += 1
                if issues.count < Self.listedIssues {
                    issues.append(BulkInputIssue(line: line.number, message: failure.message))
                }
            }
        }
        guard issueCount == 0 else {
            throw CommandFailure(
                kind: .invalidInput, message: BulkMessages.badLines(name, issues: issues, count: issueCount))
        }
        return keys
    }
}

/// The requests of a bulk input, read lazily, less the keys already answered.
struct BulkRequestSequence: AsyncSequence, Sendable {
    typealias Element = BulkRequest

    var input: BulkInput
    /// Keys not to ask again.
    var skip: Set<String>
    /// Turns a line into its requests (the session's settings for `prompt` lines; a prompt
    /// file rendered for `input` lines): one, or one per model with `run --models`. A request
    /// whose key is in ``skip`` is not sent.
    var build: @Sendable (BulkInputLine) throws -> [BulkRequest]
    /// Asked before each request: `true` ends the sequence (a spent budget, ``RunBudgetGate``).
    var stop: @Sendable () -> Bool = { false }

    struct AsyncIterator: AsyncIteratorProtocol {
        let opened: Result<BulkLineReader, any Error>
        let skip: Set<String>
        let form: BulkInputLine.Form
        let build: @Sendable (BulkInputLine) throws -> [BulkRequest]
        let stop: @Sendable () -> Bool
        var pending: [BulkRequest] = []

        mutating func next() async throws -> BulkRequest? {
            if stop() { return nil }
            let reader = try opened.get()
            while pending.isEmpty, let line = reader.next() {
                guard let parsed = try BulkInputLine.parse(line, form: form) else { continue }
                pending = try build(parsed).filter { !skip.contains($0.key) }
            }
            return pending.isEmpty ? nil : pending.removeFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let (path, command) = (input.path, input.command)
        return AsyncIterator(
            opened: Result { try BulkLineReader(path: path, command: command) }, skip: skip, form: input.form,
            build: build, stop: stop)
    }
}
