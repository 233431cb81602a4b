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

    /// Parses the words after `test`. Options may come before, between or after the paths;
    /// `--` ends them.
    /// - Throws: ``CommandFailure`` (`usage`) naming the bad option or value.
    static func parse(_ words: [String]) throws -> TestOptions {
        var options = TestOptions()
        var index = 0
        var optionsEnded = false
        func usage(_ message: String) -> CommandFailure {
            CommandFailure(kind: .usage, message: "test: \(message)")
        }
        func value(_ option: String) throws -> String {
            index += 1
            guard index < words.count else { throw usage("option '\(option)' needs a value") }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                options.paths.append(word)
                index += 1
                continue
            }
            let (name, inline) = Self.split(word)
            switch name {
            case "--":
                optionsEnded = true
            case "--jobs", "-j":
                let text = try inline ?? value(name)
                guard let jobs = Int(text), jobs >= 1 else {
                    throw usage("--jobs: expected a whole number of at least 1, got '\(text)'")
                }
                options.jobs = jobs
            case "--junit":
                let path = try inline ?? value(name)
                guard !path.isEmpty else { throw usage("--junit: expected a file path") }
                options.junit = path
            case "--record-missing" where inline == nil: options.recordMissing = true
            case "--live" where inline == nil: options.live = true
            case "--tap" where inline == nil: options.tap = true
            default:
                throw usage("unknown option '\(word)'")
            }
            index += 1
        }
        if options.live, options.recordMissing {
            throw usage("--live and --record-missing cannot be combined (--live ignores tapes)")
        }
        return options
    }

    /// `--name=value` as its name and value; other words as themselves and `nil`.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}
