import Foundation
import SophonTestSupport
import Testing

/// A `schema` SPEC's syntax error points into the line as typed, as parse errors do
/// (PRODUCT §5, "Errors and locations"): `FILE:LINE:COL: error: ...`, the source line, a caret;
/// and a lone `@` is a missing file name, not text (the real binary).
@Suite(.childSlots) struct SchemaErrorCaretTests {
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-caret-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test func scriptErrorsPointUnderTheColumnOfTheirLine() async throws {
        let script = """
            echo start
            schema { title: strng, year: integer }
              schema   { a: string b: int }
            schema \"""
              {
                a: string,
                b: [int
              }
              \"""
            schema "{a: strng}"
            schema name, age intt
            let s = strng
            schema {a: $s, b: strng}

            """
        let files = try Self.folder(["s.sophon": script])
        defer { try? FileManager.default.removeItem(at: files) }
        let outcome = try await SophonProcess.run(["s.sophon"], files: files)
        #expect(outcome.stdout == "start\n")
        #expect(
            outcome.stderr == """
                s.sophon:2:17: error: schema: unknown type "strng" (did you mean 'string'?)
                schema { title: strng, year: integer }
                                ^
                s.sophon:3:24: error: schema: expected ',' or '}' after property "a"
                  schema   { a: string b: int }
                                       ^
                s.sophon:4:3: error: schema: expected ']' after the element type
                  }
                  ^
                s.sophon:10:13: error: schema: unknown type "strng" (did you mean 'string'?)
                schema "{a: strng}"
                            ^
                s.sophon:11:18: error: schema: unknown type "intt" (did you mean 'int'?)
                schema name, age intt
                                 ^
                s.sophon:13: error: schema: unknown type "strng" (did you mean 'string'?) at column 5

                """)
        #expect(outcome.status == 1)
    }

    @Test func commandLineAndOneCommandModeShowTheArgument() async throws {
        let line = try await SophonProcess.run(["-c", "schema { title: strng }"])
        #expect(
            line.stderr == """
                -c:1:1:17: error: schema: unknown type "strng" (did you mean 'string'?)
                schema { title: strng }
                                ^

                """)
        let one = try await SophonProcess.run(["schema", "{ title: strng }"])
        #expect(
            one.stderr == """
                error: schema: unknown type "strng" (did you mean 'string'?)
                { title: strng }
                         ^

                """)
        #expect(one.status == 1)
        // `--json` keeps the location in the message: there is no caret on stdout.
        let json = try await SophonProcess.run(["--json", "schema", "{ title: strng }"])
        #expect(
            json.stdout
                == #"{"command":"schema { title: strng }","ok":false,"error":{"kind":"schemaError","#
                + #""message":"schema: unknown type \"strng\" (did you mean 'string'?) at column 10"}}"#
                + "\n")
    }

    @Test(arguments: [
        (
            ["extract", "@"],
            "error: usage: extract [--schema SPEC] [--json] [TEXT | @FILE] (a file name must follow '@')\n"
        ),
        (
            ["-c", "extract @ reply.txt"],
            "-c:1:1: error: usage: extract [--schema SPEC] [--json] [TEXT | @FILE] (a file name must follow '@')\n"
        ),
        (
            ["-c", "schema { a: string }", "-c", "validate @"],
            "-c:2:1: error: usage: validate [JSON | @FILE] (a file name must follow '@')\n"
        ),
        (
            ["-c", "tool @", "-c", "tool f @"],
            "-c:1:1: error: usage: tool NAME SPEC [\"DESCRIPTION\"] | @FILE | show NAME | clear [NAME] (a file name must follow '@')\n"
                + "-c:2:1: error: usage: tool NAME SPEC [\"DESCRIPTION\"] | @FILE | show NAME | clear [NAME] (a file name must follow '@')\n"
        ),
    ])
    func loneAtIsAMissingFileName(arguments: [String], stderr: String) async throws {
        let outcome = try await SophonProcess.run(arguments)
        #expect(outcome == .init(stdout: "", stderr: stderr, status: 1))
    }

    @Test func schemaLoneAtIsAMissingFileName() async throws {
        let outcome = try await SophonProcess.run(["schema", "@"])
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.hasPrefix("error: usage: schema SPEC | @FILE"))
        #expect(outcome.stderr.hasSuffix(" (a file name must follow '@')\n"))
        #expect(outcome.status == 1)
    }
}
