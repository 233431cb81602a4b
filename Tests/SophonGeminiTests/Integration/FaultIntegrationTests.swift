import Foundation
import SophonTestSupport
import Testing

@testable import SophonGemini

/// Every fault of scripts/fake_gemini.py over real HTTP, under both policies: the outcome, the
/// attempts the server saw, the waits handed to the injected sleep (random source fixed at
/// 0.5) and the stored model selection.
@Suite(.childSlots) struct FaultIntegrationTests {
    /// What a call should end with.
    enum Expected: Sendable, CustomStringConvertible {
        case text(String)
        case error(GeminiError)
        case failure(String, @Sendable (GeminiError) -> Bool)

        var description: String {
            switch self {
            case .text(let text): "text \(text)"
            case .error(let error): "error \(error)"
            case .failure(let name, _): "error \(name)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: GeminiRetryPolicy
        let replies: [String]
        let expected: Expected
        let attempts: Int
        let waits: [Duration]
        var requestTimeout: Duration = .seconds(20)

        var testDescription: String { "\(name) (\(policy == .default ? "default" : "minimal"))" }
    }

    static let ok = #"{"kind": "generate", "text": "ok"}"#
    static let quotaMessage =
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits."
    static let internalMessage =
        "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"

    static let cases: [Case] = [
        Case(
            name: "429 RetryInfo 26s", policy: .default,
            replies: [#"{"fault": "rate_limit", "retryDelay": "26s"}"#, ok], expected: .text("ok"),
            attempts: 2,
            waits: [.seconds(26)]),
        Case(
            name: "429 RetryInfo 26s", policy: .minimal,
            replies: [#"{"fault": "rate_limit", "retryDelay": "26s"}"#, ok], expected: .text("ok"),
            attempts: 2,
            waits: [.seconds(1)]),
        Case(
            name: "429 RetryInfo 0.250s", policy: .default,
            replies: [#"{"fault": "rate_limit", "retryDelay": "0.250s"}"#, ok], expected: .text("ok"),
            attempts: 2, waits: [.milliseconds(250)]),
        Case(
            name: "429 RetryInfo 90s", policy: .default,
            replies: [#"{"fault": "rate_limit", "retryDelay": "90s"}"#, ok],
            expected: .error(
                .rateLimited(
                    retryAfter: .seconds(90),
                    server: GeminiServerStatus(
                        status: 429, apiStatus: "RESOURCE_EXHAUSTED",
                        message: quotaMessage + " Please retry in 90s."))),
            attempts: 1, waits: []),
        Case(
            name: "429 RetryInfo 90s", policy: .minimal,
            replies: [#"{"fault": "rate_limit", "retryDelay": "90s"}"#, ok], expected: .text("ok"),
            attempts: 2,
            waits: [.seconds(1)]),
        Case(
            name: "429 without RetryInfo", policy: .default,
            replies: [#"{"fault": "rate_limit"}"#, ok], expected: .text("ok"), attempts: 2,
            waits: [.milliseconds(880)]),
        Case(
            name: "429 Retry-After header", policy: .default,
            replies: [#"{"fault": "retry_after", "retryAfter": "2"}"#, ok], expected: .text("ok"),
            attempts: 2,
            waits: [.seconds(2)]),
        Case(
            name: "429 Retry-After header", policy: .minimal,
            replies: [#"{"fault": "retry_after", "retryAfter": "2"}"#, ok], expected: .text("ok"),
            attempts: 2,
            waits: [.seconds(1)]),
        Case(
            name: "429 Retry-After 120", policy: .default,
            replies: [#"{"fault": "retry_after", "retryAfter": "120"}"#, ok],
            expected: .error(
                .rateLimited(
                    retryAfter: .seconds(120),
                    server: GeminiServerStatus(
                        status: 429, apiStatus: "RESOURCE_EXHAUSTED",
                        message: "Resource has been exhausted (e.g. check quota)."))),
            attempts: 1, waits: []),
        Case(
            name: "429 per-day quota", policy: .default, replies: [#"{"fault": "quota_per_day"}"#, ok],
            expected: .failure("quotaExhausted per day") {
                if case .quotaExhausted("GenerateRequestsPerDayPerProjectPerModel-FreeTier", let message) = $0
                {
                    return message.hasPrefix("You exceeded your current quota")
                }
                return false
            }, attempts: 1, waits: []),
        Case(
            name: "429 per-day quota", policy: .minimal, replies: [#"{"fault": "quota_per_day"}"#, ok],
            expected: .failure("quotaExhausted per day") {
                if case .quotaExhausted("GenerateRequestsPerDayPerProjectPerModel-FreeTier", _) = $0 {
                    return true
                }
                return false
            }, attempts: 1, waits: []),
        Case(
            name: "500 three times", policy: .default,
            replies: Array(repeating: #"{"fault": "internal"}"#, count: 3) + [ok],
            expected: .error(
                .http(status: 500, apiStatus: "INTERNAL", message: internalMessage, details: [])),
            attempts: 3, waits: [.milliseconds(880), .milliseconds(1760)]),
        Case(
            name: "500 three times", policy: .minimal,
            replies: Array(repeating: #"{"fault": "internal"}"#, count: 3) + [ok],
            expected: .error(
                .http(status: 500, apiStatus: "INTERNAL", message: internalMessage, details: [])),
            attempts: 3, waits: [.seconds(1), .seconds(2)]),
        Case(
            name: "503 overloaded", policy: .default, replies: [#"{"fault": "overloaded"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.milliseconds(880)]),
        Case(
            name: "503 overloaded", policy: .minimal, replies: [#"{"fault": "overloaded"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.seconds(1)]),
        Case(
            name: "504", policy: .default,
            replies: [#"{"fault": "gateway_timeout"}"#, #"{"fault": "gateway_timeout"}"#, ok],
            expected: .text("ok"), attempts: 3, waits: [.milliseconds(880), .milliseconds(1760)]),
        Case(
            name: "504", policy: .minimal, replies: [#"{"fault": "gateway_timeout"}"#, ok],
            expected: .text("ok"),
            attempts: 2, waits: [.seconds(1)]),
        Case(
            name: "400 field violations", policy: .default,
            replies: [
                #"{"fault": "bad_request", "message": "Invalid temperature.", "violations": [{"field": "generation_config.temperature", "description": "must be between 0 and 2"}]}"#,
                ok,
            ],
            expected: .error(
                .invalidRequest(
                    message: "Invalid temperature.",
                    fieldViolations: [
                        FieldViolation(
                            field: "generation_config.temperature", description: "must be between 0 and 2")
                    ],
                    server: GeminiServerStatus(
                        status: 400, apiStatus: "INVALID_ARGUMENT", message: "Invalid temperature."))),
            attempts: 1, waits: []),
        Case(
            name: "400 field violations", policy: .minimal, replies: [#"{"fault": "bad_request"}"#, ok],
            expected: .failure("invalidRequest") {
                if case .invalidRequest(_, let violations, _) = $0 { return violations.count == 1 }
                return false
            }, attempts: 1, waits: []),
        Case(
            name: "connection reset mid-body", policy: .default, replies: [#"{"fault": "reset"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.milliseconds(880)]),
        Case(
            name: "connection reset mid-body", policy: .minimal, replies: [#"{"fault": "reset"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.seconds(1)]),
        Case(
            name: "truncated body", policy: .default, replies: [#"{"fault": "truncated"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.milliseconds(880)]),
        Case(
            name: "truncated body", policy: .minimal, replies: [#"{"fault": "truncated"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.seconds(1)]),
        Case(
            name: "truncated body every time", policy: .minimal,
            replies: Array(repeating: #"{"fault": "truncated"}"#, count: 3),
            expected: .error(
                .transport(.badResponse, detail: "transfer closed with 271 bytes remaining to read (-1)")),
            attempts: 3, waits: [.seconds(1), .seconds(2)]),
        Case(
            name: "stall past the timeout", policy: .default,
            replies: [#"{"fault": "stall", "seconds": 60}"#, ok], expected: .text("ok"), attempts: 2,
            waits: [.milliseconds(880)], requestTimeout: .seconds(5)),
        Case(
            name: "stall past the timeout", policy: .minimal,
            replies: [
                #"{"fault": "stall", "seconds": 60}"#, #"{"fault": "stall", "seconds": 60}"#,
                #"{"fault": "stall", "seconds": 60}"#,
            ],
            expected: .failure("transport timedOut") {
                if case .transport(.timedOut, _) = $0 { return true }
                return false
            }, attempts: 3, waits: [.seconds(1), .seconds(2)], requestTimeout: .seconds(5)),
        Case(
            name: "HTML 502 from a proxy", policy: .default, replies: [#"{"fault": "html_502"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.milliseconds(880)]),
        Case(
            name: "HTML 502 from a proxy", policy: .minimal,
            replies: Array(repeating: #"{"fault": "html_502"}"#, count: 3),
            expected: .failure("http 502") {
                if case .http(502, nil, let message, []) = $0 { return message.contains("502 Bad Gateway") }
                return false
            }, attempts: 3, waits: [.seconds(1), .seconds(2)]),
        Case(
            name: "error wrapped in an array", policy: .default,
            replies: [#"{"fault": "wrapped_error"}"#, ok],
            expected: .text("ok"), attempts: 2, waits: [.milliseconds(880)]),
        Case(
            name: "error wrapped in an array", policy: .minimal,
            replies: [#"{"fault": "wrapped_error", "status": 400, "message": "Bad."}"#, ok],
            expected: .error(
                .invalidRequest(
                    message: "Bad.", fieldViolations: [],
                    server: GeminiServerStatus(status: 400, apiStatus: "INVALID_ARGUMENT", message: "Bad."))),
            attempts: 1, waits: []),
    ]

    @Test(arguments: [GeminiRetryPolicy.default, .minimal])
    func emptyContentIsAnEmptyReplyAndNotRetried(policy: GeminiRetryPolicy) async throws {
        let server = try await FakeGeminiServer(replies: [
            #"{"kind": "generate", "emptyContent": true}"#, Self.ok,
        ])
        let recorder = SleepRecorder()
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: recorder, baseURL: server.baseURL))
        await #expect(throws: GeminiError.emptyResponse) {
            _ = try await client.generateText(label: "empty", contents: [.user("hi")])
        }
        #expect(try await server.paths().count == 1)
        #expect(recorder.recorded == [])
    }

    @Test(arguments: cases)
    func fault(_ testCase: Case) async throws {
        let server = try await FakeGeminiServer(replies: testCase.replies)
        let recorder = SleepRecorder()
        let client = GeminiAPIClient(
            configuration: .testing(
                policy: testCase.policy, recorder: recorder, baseURL: server.baseURL,
                requestTimeout: testCase.requestTimeout))
        var outcome: Result<String, GeminiError>
        do {
            outcome = .success(try await client.generateText(label: "fault", contents: [.user("hi")]).value)
        } catch let error as GeminiError {
            outcome = .failure(error)
        }
        switch (testCase.expected, outcome) {
        case (.text(let expected), .success(let text)): #expect(text == expected)
        case (.error(let expected), .failure(let error)): #expect(error == expected)
        case (.failure(let name, let matches), .failure(let error)):
            #expect(matches(error), "\(name): \(error)")
        default: Issue.record("expected \(testCase.expected), got \(outcome)")
        }
        #expect(try await server.paths().count == testCase.attempts)
        #expect(recorder.recorded == testCase.waits)
    }
}
