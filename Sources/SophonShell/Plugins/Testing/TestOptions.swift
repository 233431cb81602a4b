import Foundation

/// The command line of `sophon test [--jobs N] [--record-missing] [--live] [--junit FILE] [--tap]
/// [PATH...]` (docs/commands.md, "test").
struct TestOptions: Sendable, Equatable {
    /// The files and folders to search; the current folder when none is given.
    var paths: [String] = []
    /// How many files run at once (at least 1); the number of cores by default.
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Record a tape for each file that has none (a live run; a key is needed).
    var recordMissing = false
    /// Ignore tapes: every file calls the server.
    var live = false
    /// Where to write the JUnit XML report, if anywhere.
    var junit: String?
    /// Print the report as TAP instead of the per-file lines.
    var tap = false
    /// `--models A,B`: every file on each model, as typed (catalog IDs, preset names, `custom:ID`).
    var models: [String] = []
    /// `--html FILE`: also write a self-contained HTML report.
    var html: String?

    /// The options of `test`, declared once (usage, help, completion and parsing read them).
    static let declared: [CommandOption] = [
        CommandOption(name: "--jobs", aliases: ["-j"], value: "N", help: "how many files run at once"),
        CommandOption(name: "--record-missing", help: "record a tape for each file that has none"),
        CommandOption(name: "--live", help: "ignore tapes: every file calls the server"),
        CommandOption(name: "--junit", value: "FILE", help: "write a JUnit XML report to FILE"),
        CommandOption(name: "--tap", help: "print the report as TAP"),
        CommandOption(name: "--html", value: "FILE", help: "write a self-contained HTML report to FILE"),
        CommandOption(
            name: "--models", value: "A,B", help: "run every file on each model (tapes NAME.MODEL.tape)",
            missing: "model IDs separated by commas"),
    ]

    /// Parses the words after `test`. Options may come before, between or after the paths;
    /// `--` ends them.
    /// - Throws: ``CommandFailure`` (`usage`) naming the bad option or value.
    static func parse(_ words: [String]) throws -> TestOptions {
        func usage(_ message: String) -> CommandFailure {
            CommandFailure(kind: .usage, message: "test: \(message)")
        }
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(words, declared: declared)
        } catch {
            throw error.failure(command: "test")
        }
        var options = TestOptions()
        options.paths = parsed.operands
        if let text = parsed.value("--jobs") {
            guard let jobs = Int(text), jobs >= 1 else {
                throw usage("--jobs: expected a whole number of at least 1, got '\(text)'")
            }
            options.jobs = jobs
        }
        if let path = parsed.value("--junit") {
            guard !path.isEmpty else { throw usage("--junit: expected a file path") }
            options.junit = path
        }
        options.recordMissing = parsed.has("--record-missing")
        options.live = parsed.has("--live")
        options.tap = parsed.has("--tap")
        if let path = parsed.value("--html") {
            guard !path.isEmpty else { throw usage("--html: expected a file path") }
            options.html = path
        }
        if let list = parsed.value("--models") {
            options.models = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !options.models.isEmpty else { throw usage("--models needs model IDs separated by commas") }
        }
        if options.live, options.recordMissing {
            throw usage("--live and --record-missing cannot be combined (--live ignores tapes)")
        }
        return options
    }
}
