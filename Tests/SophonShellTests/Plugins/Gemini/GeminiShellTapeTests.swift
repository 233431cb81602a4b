import Foundation
import SophonTestSupport
import Testing

/// Tapes and secrets end to end: the real binary against scripts/fake_gemini.py over HTTP.
@Suite(.childSlots) struct GeminiShellTapeTests {
    static let script = """
        schema { title: string, year: integer }
        ask Name a book
        expect ${last.year} == 1965
        expect ${last.title} == Solaris
        schema clear
        ask --model gemini-3.6-flash Say hello
        echo done: $last

        """

    static let replies = [
        #"{"fault": "rate_limit", "retryDelay": "0.1s"}"#,
        #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": 1965}"}"#,
        #"{"kind": "generate", "chunks": ["Hel", "lo", "!"]}"#,
    ]

    @Test func aRecordedSessionReplaysWithTheServerGoneWithTheSameStdoutAndStatus() async throws {
        let shell = try await GeminiShell()
        let script = try shell.write("session.sophon", Self.script)
        let tape = shell.home.appendingPathComponent("session.tape").path
        try await shell.server.script(Self.replies)
        let recorded = try await shell.run(["--record", tape, script])
        #expect(recorded.stdout.hasSuffix("Hello!\ndone: Hello!\n1 passed, 1 failed\n"))
        #expect(recorded.status == 1)
        #expect(try await shell.server.requests().count == 3)

        shell.server.stop()
        shell.key = nil
        let replayed = try await shell.run(["--replay", tape, script])
        #expect(replayed.stdout == recorded.stdout)
        #expect(replayed.status == recorded.status)
        #expect(!replayed.stderr.contains("missingAPIKey"))

        let changed = try shell.write(
            "changed.sophon", Self.script.replacingOccurrences(of: "Name a book", with: "Name a film"))
        let mismatch = try await shell.run(["--replay", tape, changed])
        #expect(mismatch.status == 1)
        #expect(
            mismatch.stderr.hasPrefix(
                "\(changed):2: error: request 1: body differs at $.contents[0].parts[0].text: recorded \"Name a book\", got \"Name a film\"\n"
            ))
    }

    @Test func aSentinelKeyNeverAppearsInFilesTapesOrOutputEvenWithVerbose() async throws {
        let sentinel = "AIzaSENTINEL-b7c1d2e3f4a5b6c7d8e9f0a1"
        let shell = try await GeminiShell(serverKey: sentinel, key: sentinel)
        let tape = shell.home.appendingPathComponent("secret.tape").path
        let script = try shell.write(
            "secret.sophon",
            """
            key show
            key path
            tokens How many tokens is this?
            models --live
            schema { name: string }
            ask Name a city
            schema clear
            ask Say hi
            save saved.sophon

            """)
        try await shell.server.script([
            #"{"fault": "overloaded"}"#, #"{"kind": "json", "body": {"totalTokens": 6}}"#,
        ])
        var outcomes = [try await shell.run(["--verbose", "--record", tape, script])]
        #expect(outcomes[0].status == 0)
        #expect(outcomes[0].stdout.hasPrefix("••••f0a1 (from environment variable GEMINI_API_KEY)\n"))

        // The server echoes a wrong key in its error body: that one must be masked too.
        let echoed = "AIzaSENTINEL-echoed-by-the-server-9x8y"
        shell.key = echoed
        let echoTape = shell.home.appendingPathComponent("echo.tape").path
        outcomes.append(try await shell.run(["--verbose", "--record", echoTape, "-c", "ask hi"]))
        #expect(outcomes[1].status == 1)
        #expect(outcomes[1].stderr.contains("Invalid API key: ••••9x8y"))

        let sent = try await shell.server.requests().map { $0.headers["x-goog-api-key"] ?? "" }
        #expect(sent.contains(sentinel) && sent.contains(echoed))
        for outcome in outcomes {
            for secret in [sentinel, echoed] {
                #expect(!outcome.stdout.contains(secret))
                #expect(!outcome.stderr.contains(secret))
            }
        }
        let files =
            FileManager.default.enumerator(atPath: shell.home.path)?.compactMap { $0 as? String } ?? []
        #expect(
            files.contains("secret.tape") && files.contains("echo.tape") && files.contains("saved.sophon"))
        for file in files {
            let data = (try? Data(contentsOf: shell.home.appendingPathComponent(file))) ?? Data()
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(sentinel), "\(file) holds the key")
            #expect(!text.contains(echoed), "\(file) holds the echoed key")
        }
    }

    /// A tape line that is JSON but not an exchange (or tool call) stops `--replay` before
    /// anything runs, naming the tape and the line, as a line that is not JSON does; it is
    /// never dropped so that a later request finds "no more exchanges".
    @Test func aTapeLineThatIsNotAnExchangeStopsTheReplayAtItsLine() async throws {
        let shell = try await GeminiShell()
        let streamed =
            #"{"request":{"method":"POST","path":"/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse","body":{}},"response":{"status":200,"events":"data: {}"}}"#
        let cases = [
            (#"{"foo":1}"#, "not a tape exchange: request is missing"),
            ("[]", "not a tape exchange: expected an object, got array"),
            (
                #"{"tool":{"name":"now","server":"time"}}"#,
                "not a tape exchange: tool: result or error is missing"
            ),
            (streamed, "not a tape exchange: response: events must be an array"),
            (#"{"request": oops}"#, "invalid JSON at column 13: expected a JSON value but found 'oops'"),
        ]
        for (line, message) in cases {
            let tape = try shell.write("bad.tape", "{\"sophonTape\": 1}\n\n\(line)\n")
            let outcome = try await shell.run(["-X", "--replay", tape, "-c", "ask hi"])
            #expect(outcome == .init(stdout: "", stderr: "sophon: \(tape): line 3: \(message)\n", status: 2))
        }
        #expect(try await shell.server.requests().isEmpty)
    }
}
