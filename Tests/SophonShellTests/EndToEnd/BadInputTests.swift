import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

/// Bad input through the real binary (issue 8, item 5): huge lines, invalid UTF-8, NUL bytes,
/// binary files, absurd nesting and huge files each end in a clear error naming what was wrong
/// and where — never a crash, a hang or megabytes of stderr. Serialized: each test blocks its
/// thread while the binary works through megabytes, and the other suites need the pool.
@Suite(.serialized, .childSlots) struct BadInputTests {
    static let megabytes10 = 10_000_000

    /// A fresh folder holding `files` (name -> bytes), for ``SophonProcess/run`` to copy.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-input-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    static func run(
        _ arguments: [String], files: [String: [UInt8]] = [:], stdin: String = ""
    ) async throws -> SophonProcess.Outcome {
        let files = try folder(files)
        defer { try? FileManager.default.removeItem(at: files) }
        return try await SophonProcess.run(arguments, stdin: stdin, files: files, timeout: 300)
    }

    // MARK: - Huge lines

    @Test func tenMegabyteLineRuns() async throws {
        let text = String(repeating: "a", count: Self.megabytes10)
        let outcome = try await Self.run(
            ["long.sophon"], files: ["long.sophon": Array("echo \(text)\n".utf8)])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.utf8.count == Self.megabytes10 + 1)
        #expect(outcome.stdout == text + "\n")
    }

    @Test func errorInATenMegabyteLineShowsAnExcerpt() async throws {
        let line = "echo " + String(repeating: "a", count: Self.megabytes10) + #" "\q""#
        let outcome = try await Self.run(["long.sophon"], files: ["long.sophon": Array((line + "\n").utf8)])
        let expected =
            #"long.sophon:1:10000008: error: invalid escape '\q' in double quotes; the escapes are \" \\ \n \t \$ \u{XXXX}"#
            + "\n…" + String(repeating: "a", count: 115) + #" "\q""# + "\n"
            + String(repeating: " ", count: 118) + "^\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 1))
    }

    @Test func tenMegabyteWordIsAnUnknownCommandShownCut() async throws {
        let word = String(repeating: "a", count: Self.megabytes10)
        let outcome = try await Self.run(["word.sophon"], files: ["word.sophon": Array((word + "\n").utf8)])
        let shown = String(repeating: "a", count: 64) + "…"
        #expect(
            outcome
                == .init(
                    stdout: "", stderr: "word.sophon:1: error: unknown command '\(shown)' (see 'help')\n",
                    status: 1))
    }

    /// Words too long to echo are named cut: a type, a setting, a model ID.
    @Test(arguments: [
        (
            #"extract --schema "{ a: WORD }" {}"#,
            #"error: extract: unknown type "X…" (expected string, integer, number, boolean, an object, "#
                + "an array or quoted values) at column 6"
        ),
        (
            #"extract --schema "a WORD" {}"#,
            #"error: extract: unknown type "X…" (expected str, int, float or bool) at column 3"#
        ),
        ("set WORD 1", "error: unknown setting 'Y…'"),
        ("set model WORD", "error: set model: 'Y…' is not a valid model ID"),
        ("set embed-model WORD", "error: set embed-model: 'Y…' is not a valid model ID"),
        ("ask --model WORD hi", "error: ask: --model: 'Y…' is not a valid model ID"),
    ])
    func tenMegabyteWordsAreNamedCut(line: String, message: String) async throws {
        let word = String(repeating: "x", count: Self.megabytes10)
        let script = line.replacingOccurrences(of: "WORD", with: word) + "\n"
        let outcome = try await Self.run(["huge.sophon"], files: ["huge.sophon": Array(script.utf8)])
        let expected = message.replacingOccurrences(of: "X…", with: String(repeating: "x", count: 40) + "…")
            .replacingOccurrences(of: "Y…", with: String(repeating: "x", count: 64) + "…")
        #expect(outcome == .init(stdout: "", stderr: "huge.sophon:1: " + expected + "\n", status: 1))
    }

    @Test(arguments: [
        ("short", 3, "short", 3),
        (String(repeating: "x", count: 120), 120, String(repeating: "x", count: 120), 120),
        (String(repeating: "x", count: 300), 1, String(repeating: "x", count: 120) + "…", 1),
        (String(repeating: "x", count: 300), 200, "…" + String(repeating: "x", count: 120) + "…", 62),
        (String(repeating: "x", count: 300), 301, "…" + String(repeating: "x", count: 120), 122),
    ])
    func longSourceLinesAreShownAroundTheColumn(line: String, column: Int, text: String, shownColumn: Int) {
        let shown = ShellSyntaxError.excerpt(of: line, around: column)
        #expect(shown.text == text)
        #expect(shown.column == shownColumn)
    }

    // MARK: - Encodings and binary files

    @Test func invalidUTF8FailsItsLineWithTheLocation() async throws {
        let script: [UInt8] =
            Array("echo ok\necho bad ".utf8) + [0xFF, 0xFE] + Array(" here\necho after\n".utf8)
        let outcome = try await Self.run(["bad.sophon"], files: ["bad.sophon": script])
        let expected =
            "bad.sophon:2:10: error: line 2 is not valid UTF-8\necho bad \u{FFFD}\u{FFFD} here\n         ^\n"
        #expect(outcome == .init(stdout: "ok\nafter\n", stderr: expected, status: 1))
    }

    @Test func nulByteMakesABinaryFile() async throws {
        let outcome = try await Self.run(
            ["nul.sophon"], files: ["nul.sophon": Array("echo a\n".utf8) + [0] + Array("b\n".utf8)])
        #expect(outcome == .init(stdout: "", stderr: "sophon: 'nul.sophon' is not a text file\n", status: 2))
    }

    @Test func executableGivenAsAScriptIsNotAText() async throws {
        // An ELF header: binary, with NUL bytes near the start.
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + Array(repeating: 0, count: 56)
        let outcome = try await Self.run(["mytool"], files: ["mytool": elf])
        #expect(outcome == .init(stdout: "", stderr: "sophon: 'mytool' is not a text file\n", status: 2))
    }

    @Test func binaryFileWithoutNulFailsLineByLine() async throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF\n".utf8) + [0xC3, 0x28, 0x0A]
        let outcome = try await Self.run(["photo.jpg"], files: ["photo.jpg": jpeg])
        let expected =
            "photo.jpg:1:1: error: line 1 is not valid UTF-8\n\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}JFIF\n^\n"
            + "photo.jpg:2:1: error: line 2 is not valid UTF-8\n\u{FFFD}(\n^\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 1))
    }

    // MARK: - Nesting

    @Test(arguments: [
        String(repeating: "[", count: 100_000),
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        "Here you go: " + String(repeating: "{\"a\": [", count: 50_000),
    ])
    func hundredThousandNestedBracketsAreTooDeep(text: String) async throws {
        let offset = text.hasPrefix("Here") ? 13 + 256 * 7 : 512
        let outcome = try await Self.run(["extract"], stdin: text)
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "error: extract: JSON nested deeper than 512 levels at offset \(offset)\n",
                    status: 1))
    }

    @Test func binaryInputIsNotRepairedIntoValues() async throws {
        // Model text never holds a NUL byte; repairing binary junk would invent values.
        let outcome = try await Self.run(["extract"], stdin: "noise {\"a\": 1} \u{0} {'b': x")
        #expect(
            outcome
                == .init(
                    stdout: "", stderr: "error: extract: stdin is not text (a NUL byte at offset 15)\n",
                    status: 1))
        let file = try await Self.run(
            ["-c", "extract @junk.bin", "-c", "echo after"],
            files: ["junk.bin": [0x7B, 0x22, 0x61, 0x00, 0xFF]])
        #expect(file.stdout == "after\n")
        #expect(file.stderr.hasSuffix("junk.bin is not text (a NUL byte at offset 3)\n"))
        #expect(file.status == 1)
    }

    @Test func nestedBracketsInAScriptLineFailThatLine() async throws {
        let script = "extract " + String(repeating: "[", count: 100_000) + "\necho after\n"
        let outcome = try await Self.run(["deep.sophon"], files: ["deep.sophon": Array(script.utf8)])
        let expected = "deep.sophon:1: error: extract: JSON nested deeper than 512 levels at offset 512\n"
        #expect(outcome == .init(stdout: "after\n", stderr: expected, status: 1))
    }

    @Test(arguments: [
        (String(repeating: "{ a: ", count: 10_000) + "string" + String(repeating: " }", count: 10_000), 641),
        (String(repeating: "[", count: 10_000) + "string" + String(repeating: "]", count: 10_000), 129),
    ])
    func schemaSpecNestedTenThousandDeep(spec: String, column: Int) async throws {
        let outcome = try await Self.run(["extract", "--schema", spec, #"{"a": 1}"#])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "error: extract: schema nested deeper than 128 levels at column \(column)\n",
                    status: 1))
    }

    @Test func jsonSchemaFileNestedTenThousandDeep() async throws {
        var schema = #"{"type": "string"}"#
        for _ in 0..<10_000 { schema = #"{"type": "object", "properties": {"a": "# + schema + "}}" }
        let outcome = try await Self.run(
            ["extract", "--schema", "@deep.json", #"{"a": 1}"#], files: ["deep.json": Array(schema.utf8)])
        let column = 256 * 39 + 1
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "error: extract: deep.json:1:\(column): nesting deeper than 512 levels\n",
                    status: 1))
    }

    @Test func jsonSchemaFileDeeperThanTheSchemaLimit() async throws {
        var schema = #"{"type": "string"}"#
        for _ in 0..<200 { schema = #"{"type": "array", "items": "# + schema + "}" }
        let outcome = try await Self.run(
            ["extract", "--schema", "@deep.json", "[]"], files: ["deep.json": Array(schema.utf8)])
        let path = "$" + String(repeating: ".items", count: 129)
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "error: extract: deep.json: \(path): schemas nested deeper than 128 levels\n",
                    status: 1))
    }

    // MARK: - Huge files

    /// A sparse file of `size` bytes in a fresh folder (nothing is written to disk).
    static func sparseFile(_ name: String, size: UInt64) throws -> URL {
        let folder = try folder([name: []])
        let file = folder.appendingPathComponent(name)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: size)
        try handle.close()
        return file
    }

    @Test func oneGigabyteFileIsRefusedBySizeBeforeItIsRead() async throws {
        let file = try Self.sparseFile("big.txt", size: 1 << 30)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await SophonProcess.run(["extract", "@" + file.path])
        let expected = "error: extract: '\(file.path)' is 1073741824 bytes; the limit is 268435456 bytes\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 1))
    }

    @Test func oneGigabyteSchemaFileIsRefusedBySize() async throws {
        let file = try Self.sparseFile("big.json", size: 1 << 30)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await SophonProcess.run(["extract", "--schema", "@" + file.path, "{}"])
        let expected = "error: extract: '\(file.path)' is 1073741824 bytes; the limit is 8388608 bytes\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 1))
    }

    @Test func endlessDeviceIsReadOnlyUpToTheLimit() async throws {
        let outcome = try await SophonProcess.run(["extract", "@/dev/zero"], timeout: 300)
        let expected = "error: extract: '/dev/zero' is more than 268435456 bytes, the limit\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 1))
    }

    @Test func oneGigabyteScriptIsRefused() async throws {
        let file = try Self.sparseFile("big.sophon", size: 1 << 30)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await SophonProcess.run([file.path])
        let expected = "sophon: '\(file.path)' is larger than 67108864 bytes\n"
        #expect(outcome == .init(stdout: "", stderr: expected, status: 2))
    }
}
