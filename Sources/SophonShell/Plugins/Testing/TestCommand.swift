import Foundation
import SophonCore
import SophonGemini

/// `test [--jobs N] [--record-missing] [--live] [--junit FILE] [--tap] [PATH...]`: runs every
/// `*.sophon` file under the paths, each in its own child process and session without
/// `sophonrc`, `--jobs N` at a time, and reports per file (docs/commands.md, "test").
///
/// The report is the same whatever `--jobs` is: lines are printed in path order as soon as
/// every earlier file is done. In one-command mode (`sophon test ...`) the run ends with status
/// 0 when every file passed, 1 when any failed, 2 for a usage error; elsewhere a failed file
/// fails the command. With `--json` nothing is printed as the files finish: the command's one
/// object holds every file (``TestReport/data(_:)``), as its `result`, or beside the `error`'s
/// message when a file failed.
enum TestCommand {
    /// The command's definition, listed with the core commands (``CorePlugin/more``).
    static let definition = PluginCommand(
        name: "test",
        usage:
            "test [--jobs N] [--record-missing] [--live] [--junit FILE] [--tap] [--models A,B] [--html FILE] [--json] [PATH...]",
        summary: "run the *.sophon scripts under the paths as tests, each in its own session",
        options: TestOptions.declared + [CommandOption.json], readsStartupFile: false, completion: .files,
        takesJSONFlag: true,
        run: { request, context in try await TestCommand.run(request, context: context) })

    static func run(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        // With --json the results are one object (``TestReport/data(_:)``), nothing else on stdout.
        let json = context.session.settings.output == .json
        let options: TestOptions
        let files: [String]
        let models: [String]
        do {
            options = try TestOptions.parse(request.arguments)
            if let junit = options.junit {
                try OutputFolder.requireWritable(
                    junit, option: "--junit", command: "test", kind: .usage, resolve: context.resolve)
            }
            if let html = options.html {
                try OutputFolder.requireWritable(
                    html, option: "--html", command: "test", kind: .usage, resolve: context.resolve)
            }
            files = try TestDiscovery.files(under: options.paths)
            // Catalog IDs as `--model` takes them; any other model as `custom:ID`.
            models =
                options.models.isEmpty
                ? []
                : try ModelList.parse(options.models.joined(separator: ","), command: "test").map {
                    $0.isPreset ? $0.id : "custom:" + $0.id
                }
        } catch var failure as CommandFailure {
            guard context.mode == .oneCommand else { throw failure }
            if json {
                failure.exitStatus = ShellExitStatus.usage
                throw failure
            }
            context.io.printError(ShellMessages.commandLine(failure.message))
            return .exit(ShellExitStatus.usage)
        }
        if files.isEmpty {
            let searched = options.paths.isEmpty ? "." : options.paths.joined(separator: " ")
            context.io.printError(ShellMessages.warning("test: no *.sophon files under \(searched)"))
        }
        let tapes: TestFileRunner.TapeMode =
            options.live ? .live : options.recordMissing ? .recordMissing : .replayPresent
        var runner = TestFileRunner(executable: TestFileRunner.currentExecutable, tapes: tapes)
        runner.exchanges = options.html != nil
        let startDate = Date()
        let started = ContinuousClock.now
        let tap = options.tap && !json
        let runs = files.flatMap { file in
            models.isEmpty ? [(file, nil)] : models.map { (file, Optional($0)) }
        }
        if tap { TestReport.tapHeader(count: runs.count).forEach(context.io.printLine) }
        let results = await runAll(runs, jobs: options.jobs, runner: runner) { result, index in
            if json { return }
            if tap {
                TestReport.tapPoint(result, number: index + 1).forEach(context.io.printLine)
            } else {
                context.io.printLine(TestReport.line(result))
            }
        }
        if tap {
            context.io.printLine(TestReport.tapTally(results))
        } else if !json {
            let details = TestReport.details(results)
            if !details.isEmpty {
                context.io.printLine("")
                details.forEach(context.io.printLine)
            }
            if !models.isEmpty {
                TestReport.matrix(results, files: files, models: models).forEach(context.io.printLine)
            }
            if let cost = TestReport.cost(results) { context.io.printLine("cost: \(cost)") }
            // The tally over files closes the report, as the tally of expectations closes a run.
            context.io.printLine(TestReport.tally(results))
        }
        let elapsed = ContinuousClock.now - started
        if let junit = options.junit {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let document = JUnitReport.document(
                results, seconds: seconds, timestamp: startDate,
                hostname: ProcessInfo.processInfo.hostName.isEmpty
                    ? "localhost" : ProcessInfo.processInfo.hostName,
                jobs: options.jobs)
            do {
                try AtomicFile.write(Data(document.utf8), to: URL(fileURLWithPath: context.resolve(junit)))
            } catch {
                throw CommandFailure(kind: .fileError, message: "test: --junit: \(error)")
            }
        }
        if let html = options.html {
            try TestReport.page(results, files: files, models: models).write(
                to: context.resolve(html), command: "test")
        }
        let failed = results.filter { !$0.passed }.count
        if context.mode == .oneCommand, !json {
            return .exit(failed == 0 ? ShellExitStatus.success : ShellExitStatus.failure)
        }
        guard failed == 0 else {
            throw CommandFailure(
                kind: .testFailed, message: "test: \(failed) of \(results.count) files failed",
                details: TestReport.data(results))
        }
        return json ? .report(TestReport.tally(results), data: .object(TestReport.data(results))) : .none
    }

    /// Runs `files` with at most `jobs` children at once and calls `report` for each result in
    /// file order, as soon as every earlier file is done.
    /// - Returns: the results in file order.
    static func runAll(
        _ files: [(path: String, model: String?)], jobs: Int, runner: TestFileRunner,
        report: (TestFileResult, Int) -> Void
    ) async -> [TestFileResult] {
        var done: [Int: TestFileResult] = [:]
        var results: [TestFileResult] = []
        await withTaskGroup(of: (Int, TestFileResult).self) { group in
            var next = 0
            func start() {
                guard next < files.count else { return }
                let index = next
                let (path, model) = files[index]
                group.addTask { (index, await runner.run(path, model: model)) }
                next += 1
            }
            for _ in 0..<max(1, jobs) { start() }
            while let (index, result) = await group.next() {
                done[index] = result
                while let ready = done.removeValue(forKey: results.count) {
                    report(ready, results.count)
                    results.append(ready)
                }
                start()
            }
        }
        return results
    }
}

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
            options.models = try CommaList.items(list, command: "test", option: "--models", noun: "model IDs")
        }
        if options.live, options.recordMissing {
            throw usage("--live and --record-missing cannot be combined (--live ignores tapes)")
        }
        return options
    }
}

/// Finds the scripts `sophon test` runs (docs/commands.md, "test"): every `*.sophon` file under
/// the given folders (hidden files and folders skipped), and files named directly, sorted by
/// path, each once.
enum TestDiscovery {
    /// The script paths under `paths` (the current folder when empty), as they will be shown:
    /// relative to the current folder when a folder was given as `.`, else prefixed with the
    /// folder as typed.
    /// - Throws: ``CommandFailure`` (`usage`) for a path that does not exist.
    static func files(under paths: [String]) throws -> [String] {
        var found = Set<String>()
        for path in paths.isEmpty ? ["."] : paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CommandFailure(kind: .usage, message: "test: no such file or folder: \(path)")
            }
            guard isFolder.boolValue else {
                found.insert(path)
                continue
            }
            for relative in scripts(in: path) {
                found.insert(join(path, relative))
            }
        }
        return found.sorted()
    }

    /// The tape replayed for `script`: `NAME.tape` beside `NAME.sophon`; on `model`
    /// (`test --models`), `NAME.MODEL.tape`.
    static func tape(for script: String, model: String? = nil) -> String {
        let base = script.hasSuffix(".sophon") ? String(script.dropLast(".sophon".count)) : script
        return base + (model.map { "." + $0 } ?? "") + ".tape"
    }

    /// The `*.sophon` files under `folder`, as paths relative to it.
    private static func scripts(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var result: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard name.hasSuffix(".sophon") else { continue }
            var isFolder: ObjCBool = false
            let full = join(folder, relative)
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(relative)
            }
        }
        return result
    }

    /// `relative` under `folder` as shown: `.` and trailing slashes dropped.
    private static func join(_ folder: String, _ relative: String) -> String {
        var prefix = folder
        while prefix.count > 1, prefix.hasSuffix("/") { prefix.removeLast() }
        if prefix == "." { return relative }
        return prefix == "/" ? "/" + relative : prefix + "/" + relative
    }
}
