import Foundation
import SophonTestSupport
import Testing

/// A dry run under `--json` prints the request as named members, never as a sentence in a
/// string (PRODUCT Part 3; docs/commands.md, "ask"): `{"method", "path", "body"}`, and
/// `{"requests": [...]}` for a command that would send several.
@Suite(.childSlots) struct DryRunJSONTests {
    static let environment = ["GEMINI_API_KEY": "test-key"]

    @Test func askGivesMethodPathAndTheBodyAsJSON() async throws {
        let outcome = try await SophonProcess.run(
            ["--json", "-c", "ask --dry-run hello"], environment: Self.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout
                == #"{"command":"ask --dry-run hello","ok":true,"result":{"method":"POST","#
                + #""path":"/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse","#
                + #""body":{"contents":[{"role":"user","parts":[{"text":"hello"}]}]}}}"# + "\n")
    }

    @Test func embedGivesTheSameShape() async throws {
        let outcome = try await SophonProcess.run(
            ["-c", "embed --json --dry-run hello"], environment: Self.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout
                == #"{"command":"embed --json --dry-run hello","ok":true,"result":{"method":"POST","#
                + #""path":"/v1beta/models/gemini-embedding-001:embedContent","#
                + #""body":{"content":{"parts":[{"text":"hello"}]}}}}"# + "\n")
    }

    @Test func compareGivesEveryRequestInTheOrderGiven() async throws {
        let outcome = try await SophonProcess.run(
            ["--json", "-c", "compare --dry-run --models gemini-3.8-flash,gemini-2.5-flash hi"],
            environment: Self.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = try #require(outcome.stdout.split(separator: "\n").first)
        let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let result = try #require(reply?["result"] as? [String: Any])
        let requests = try #require(result["requests"] as? [[String: Any]])
        #expect(
            requests.map { $0["path"] as? String } == [
                "/v1beta/models/gemini-3.8-flash:generateContent",
                "/v1beta/models/gemini-2.5-flash:generateContent",
            ])
        #expect(requests.map { $0["method"] as? String } == ["POST", "POST"])
    }

    @Test func compareOfOneModelIsStillAList() async throws {
        let outcome = try await SophonProcess.run(
            ["--json", "-c", "compare --dry-run --models gemini-3.8-flash hi"], environment: Self.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasPrefix(
                #"{"command":"compare --dry-run --models gemini-3.8-flash hi","ok":true,"result":{"requests":[{"method":"POST""#
            ))
    }

    @Test func withoutJSONTheRequestIsPrintedAsText() async throws {
        let outcome = try await SophonProcess.run(
            ["-c", "tokens --dry-run hi"], environment: Self.environment)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == """
                POST /v1beta/models/gemini-3.8-flash:countTokens
                {
                  "generateContentRequest": {
                    "model": "models/gemini-3.8-flash",
                    "contents": [
                      {
                        "role": "user",
                        "parts": [
                          {
                            "text": "hi"
                          }
                        ]
                      }
                    ]
                  }
                }

                """)
    }
}
