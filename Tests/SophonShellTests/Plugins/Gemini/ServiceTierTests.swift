import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonShell

/// `set service-tier` end to end: the tier sent at the request's root, the served tier in
/// `--json` and `--verbose`, and a Flex queue that sheds requests (scripts/fake_gemini_cloud.py).
@Suite(.childSlots) struct ServiceTierTests {
    @Test func flexIsSentAtTheRootAndTheServedTierIsReported() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "--verbose", "-c", "set service-tier flex\nask hi"])
        #expect(outcome.status == 0)
        let body = try await shell.server.requests().first?.body ?? .null
        #expect(body["serviceTier"] == .string("flex"))
        #expect(body["generationConfig"]?["serviceTier"] == nil)
        let reply = try JSONValue(parsing: outcome.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(reply["serviceTier"] == .string("flex"))
        #expect(outcome.stderr.contains("served by the flex tier\n"))
    }

    @Test func noTierIsSentByDefaultAndNoneIsReported() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "ask", "hi"])
        #expect(outcome.status == 0)
        #expect(try await shell.server.requests().first?.body["serviceTier"] == nil)
        #expect(!outcome.stdout.contains("serviceTier"))
        #expect(try await shell.run(["-c", "show service-tier"]).stdout == "default\n")
    }

    @Test func aShedFlexRequestIsRetriedWithBackoffPastTheDefaultAttempts() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control("POST", "/_sophon/flex", body: #"{"shed": 3}"#)
        let outcome = try await shell.run([
            "--verbose", "-c", "retry-policy base=10ms cap=20ms jitter=0\nset service-tier flex\nask hi",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("Hello from the fake Gemini server.\n"))
        // Three shed (503), the fourth served: past the default policy's 3 attempts.
        let retries = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("retry ") }
        #expect(
            retries == [
                "retry 1/4 in 0s after 503 UNAVAILABLE", "retry 2/4 in 0s after 503 UNAVAILABLE",
                "retry 3/4 in 0s after 503 UNAVAILABLE",
            ])
        let counts = try await JSONValue(
            parsing: String(decoding: shell.server.control("GET", "/_sophon/flex", body: nil), as: UTF8.self))
        #expect(counts["shed"] == .integer(3))
        #expect(counts["served"] == .integer(1))
    }

    @Test func aStandardRequestIsNotRetriedPastThePolicy() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"fault": "overloaded"}"#, #"{"fault": "overloaded"}"#, #"{"fault": "overloaded"}"#,
        ])
        let outcome = try await shell.run(["-c", "retry-policy base=10ms cap=20ms jitter=0\nask hi"])
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().count == 3)
    }

    @Test func anUnknownTierIsRefused() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "set service-tier FAST"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:1: error: set service-tier: expected standard, flex, priority or default, got 'FAST'\n"
        )
        #expect(
            try await shell.run(["-c", "set service-tier Priority\nshow service-tier"]).stdout == "priority\n"
        )
    }

    @Test func flexRaisesOnlyTheDefaultTimeoutToTwentyMinutes() throws {
        let flex = VertexSetup.Deployment(tier: "flex")
        #expect(GeminiServices.callTimeout(nil, flex) == .seconds(1200))
        #expect(GeminiServices.callTimeout(.seconds(30), flex) == .seconds(30))
        // `set timeout 3m` is a choice, kept under Flex, though it equals the default.
        #expect(GeminiServices.callTimeout(.seconds(180), flex) == .seconds(180))
        #expect(GeminiServices.callTimeout(nil, VertexSetup.Deployment()) == .seconds(180))
        var settings = ShellSettings()
        #expect(settings.chosenTimeout == nil)
        try settings.set("timeout", to: "3m")
        #expect(settings.chosenTimeout == .seconds(180))
    }

    @Test func showTimeoutSaysWhatFlexCallsGet() async throws {
        let shell = try await GeminiShell()
        let shown = try await shell.run([
            "-c",
            "show timeout\nset service-tier flex\nshow timeout\nset service-tier standard\nshow timeout\n"
                + "set service-tier flex\nset timeout 3m\nshow timeout\nshow",
        ])
        #expect(shown.status == 0)
        let lines = shown.stdout.split(separator: "\n")
        #expect(Array(lines.prefix(4)) == ["3m", "20m", "3m", "3m"])
        #expect(lines.contains("timeout: 3m"))
        #expect(try await shell.run(["-c", "set service-tier flex\nshow"]).stdout.contains("timeout: 20m\n"))
    }

    @Test func theServedTierIsInTheExchangeLog() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["-c", "set service-tier flex\nask hi"]).status == 0)
        let logs = try await shell.run(["--json", "logs"])
        let entry = try JSONValue(parsing: logs.stdout)["result"]?[0]
        #expect(
            entry?["settings"]
                == .object([JSONMember("stream", .bool(true)), JSONMember("serviceTier", .string("flex"))]))
    }
}
