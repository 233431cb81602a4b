import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `logs [-n N] [--json]`, `logs search TEXT [-n N]`, `logs show ID` end to end (PRODUCT §9,
/// docs/logs.md): the real binary against scripts/fake_gemini.py.
@Suite(.childSlots) struct LogsCommandTests {
    /// A listed line with its time (`2026-12-07T13:34:02.102Z`) replaced by `TIME`.
    static func untimed(_ text: String) -> String {
        text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "TIME")
    }

    @Test func helpSaysSearchTakesNAndJSONIsAnArray() async throws {
        let shell = try await GeminiShell()
        let help = try await shell.run(["help", "logs"])
        #expect(help.status == 0)
        #expect(
            help.stdout.hasPrefix(
                "usage: logs [-n N] [--json] [--html FILE] | logs search TEXT [-n N] | logs show ID\n"))
        #expect(
            help.stdout.contains("\n  --json       JSON: an array of entries (one object for logs show)\n"))
    }

    @Test func searchTakesNAndJSONListsAnArray() async throws {
        let shell = try await GeminiShell()
        for prompt in ["the capital of France", "capital letters", "something else"] {
            #expect(try await shell.run(["ask", prompt]).status == 0)
        }
        let all = try await shell.run(["logs", "search", "capital"])
        #expect(
            Self.untimed(all.stdout) == """
                1  TIME  ask  gemini-3.8-flash  the capital of France -> Hello from the fake Gemini server.
                2  TIME  ask  gemini-3.8-flash  capital letters -> Hello from the fake Gemini server.

                """)
        let newest = try await shell.run(["logs", "search", "capital", "-n", "1"])
        #expect(
            Self.untimed(newest.stdout)
                == "2  TIME  ask  gemini-3.8-flash  capital letters -> Hello from the fake Gemini server.\n")
        let json = try await shell.run(["logs", "--json", "-n", "2"])
        guard case .array(let entries) = try JSONValue(parsing: json.stdout) else {
            Issue.record("logs --json is not an array: \(json.stdout)")
            return
        }
        #expect(entries.map { $0["id"]?.doubleValue } == [2, 3])
        #expect(entries.map { $0["prompt"]?.stringValue } == ["capital letters", "something else"])
        let one = try JSONValue(parsing: try await shell.run(["logs", "show", "1", "--json"]).stdout)
        #expect(one["id"]?.doubleValue == 1)
        #expect(one["command"]?.stringValue == "ask")
        #expect(one["answer"]?.stringValue == "Hello from the fake Gemini server.")
    }
}
