import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `extract` reading a regular file straight into its text (`@FILE`, or standard input
/// redirected from a file) and printing from the engine's text without a tree (issue 20):
/// the same bytes, notes and errors as the general path (standard input from a pipe).
@Suite(.childSlots) struct ExtractStreamingTests {
    /// Runs `sophon arguments` with standard input read from the file holding `input`.
    static func runWithFileInput(_ arguments: [String], input: Data) async throws -> SophonProcess.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sophon-stream-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("input.txt")
        try input.write(to: file)
        let stdout = folder.appendingPathComponent("stdout")
        let stderr = folder.appendingPathComponent("stderr")
        #expect(FileManager.default.createFile(atPath: stdout.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: stderr.path, contents: nil))
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "SOPHON_HOME": folder.path, "HOME": folder.path]
        process.currentDirectoryURL = folder
        process.standardInput = try FileHandle(forReadingFrom: file)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        await OffPool.run { process.waitUntilExit() }
        return SophonProcess.Outcome(
            stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderr), as: UTF8.self),
            status: process.terminationStatus)
    }

    static let inputs: [[UInt8]] = [
        Array("Sure!\n```json\n{'a': [1, 2, True], \"b\": \"é😀\\n\",".utf8),
        Array("[1, {\"x\": []}, {}]".utf8),
        Array("first {\"a\": 1} then [2, 3]".utf8),
        Array("{\"bad\": \"".utf8) + [0xFF, 0xC3] + Array("\"}".utf8),
        Array("{\"a\": 1}".utf8) + [0] + Array(" tail".utf8),
        Array("\u{FEFF}{\"bom\": 1}".utf8),
        Array("\u{FEFF}\u{FEFF}{'a': 1}".utf8),
        Array("no json".utf8),
    ]

    @Test(arguments: inputs)
    func fileStdinPrintsAsPipedStdin(input: [UInt8]) async throws {
        for arguments in [["extract"], ["--json", "extract"]] {
            let piped = try await SophonProcess.run(arguments, stdin: String(decoding: input, as: UTF8.self))
            let file = try await Self.runWithFileInput(arguments, input: Data(input))
            if input.contains(0) || input.contains(0xFF) {
                // A pipe carries the text as the test wrote it (already decoded), so compare
                // the parts that do not name the bytes.
                #expect(file.status == (input.contains(0) ? 1 : 0))
                continue
            }
            #expect(file == piped, "\(arguments)")
        }
    }

    @Test func atFileNotesInvalidUTF8AndRefusesNUL() async throws {
        let invalid = try await Self.runWithFileInput(
            ["-c", "extract @input.txt"], input: Data(Array("{\"a\": \"x".utf8) + [0xFF] + Array("\"}".utf8)))
        #expect(invalid.status == 0)
        #expect(invalid.stdout == "{\n  \"a\": \"x\u{FFFD}\"\n}\n")
        #expect(
            invalid.stderr.hasSuffix(
                "input.txt is not valid UTF-8; invalid bytes were replaced with U+FFFD\n"))
        let binary = try await Self.runWithFileInput(
            ["extract", "@input.txt"], input: Data(Array("[1]".utf8) + [0]))
        #expect(binary.status == 1)
        #expect(binary.stdout == "")
        #expect(binary.stderr.hasSuffix("input.txt is not text (a NUL byte at offset 3)\n"))
    }

    /// `$last` kept as text is read into by later commands, and printed as it was.
    @Test func lastIsReadAfterAStreamedExtract() async throws {
        let outcome = try await Self.runWithFileInput(
            [
                "-c", "extract @input.txt", "-c", "echo ${last.a[1]}", "-c", "echo $last",
                "-c", "expect ${last.b} == \"x\"", "-c", "set output raw", "-c", "extract @input.txt",
            ],
            input: Data("{'a': [1, 2], 'b': 'x'}".utf8))
        #expect(outcome.status == 0)
        let pretty = "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"x\"\n}\n"
        #expect(
            outcome.stdout == pretty + "2\n" + #"{"a":[1,2],"b":"x"}"# + "\n" + #"{"a":[1,2],"b":"x"}"# + "\n"
                + "1 passed, 0 failed\n")
    }
    /// Inputs of more than 1 MiB: `@FILE` and stdin redirected from the file are mapped (their
    /// pages given back as they are read), a pipe is read into one mapping; all print the value
    /// the engine finds in the same text, with the same notes and errors.
    @Test(arguments: [
        "```json\n{'a': [1, 2, True], \"b\": \"é😀\\n\",", "\u{FEFF}[1, {\"x\": []}]",
        "first {\"a\": 1} then [2, 3]",
    ])
    func largeInputsPrintWhatTheEngineFinds(tail: String) async throws {
        let prose = String(repeating: "Some prose about the data, é and 😀 included.\n", count: 25_000)
        let text = tail.hasPrefix("\u{FEFF}") ? "\u{FEFF}" + prose + tail.dropFirst() : prose + tail
        let input = Data(text.utf8)
        #expect(input.count > 1 << 20)
        let found = try LLMJSONExtractor().extract(from: text)
        let value = found.count == 1 ? found[0].value : .array(found.map(\.value))
        let file = try await Self.runWithFileInput(["extract", "@input.txt"], input: input)
        #expect(file.status == 0)
        #expect(file.stdout == value.prettyText + "\n")
        #expect(try await Self.runWithFileInput(["extract"], input: input) == file)
        let piped = try await SophonProcess.run(["extract"], stdin: text)
        #expect(piped.stdout == file.stdout)
        #expect(piped.stderr == file.stderr.replacingOccurrences(of: "input.txt", with: "stdin"))
        let raw = try await Self.runWithFileInput(
            ["-c", "set output raw", "-c", "extract @input.txt", "-c", "echo $last"], input: input)
        #expect(raw.stdout == value.compactText + "\n" + value.compactText + "\n")
    }

    @Test func largeFileWithInvalidUTF8OrNULIsNotedOrRefused() async throws {
        let prose = Array(String(repeating: "prose line\n", count: 100_000).utf8)
        let invalid = try await Self.runWithFileInput(
            ["extract", "@input.txt"],
            input: Data(prose + Array("{\"a\": \"x".utf8) + [0xFF] + Array("\"}".utf8)))
        #expect(invalid.status == 0)
        #expect(invalid.stdout == "{\n  \"a\": \"x\u{FFFD}\"\n}\n")
        #expect(
            invalid.stderr.hasPrefix(
                "note: input.txt is not valid UTF-8; invalid bytes were replaced with U+FFFD\n"))
        let binary = try await Self.runWithFileInput(
            ["extract"], input: Data(prose + [0] + Array("[1]".utf8)))
        #expect(binary.status == 1)
        #expect(binary.stdout == "")
        #expect(binary.stderr == "error: extract: stdin is not text (a NUL byte at offset \(prose.count))\n")
    }
}
