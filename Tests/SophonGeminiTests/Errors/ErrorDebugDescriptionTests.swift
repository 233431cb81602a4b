import Foundation
import SophonCore
import SophonGemini
import Testing

/// Errors say what happened in logs (`String(reflecting:)`: the case and its fields), keep the
/// localized sentence as `description`, and give no retry advice when a retry cannot help.
@Suite struct ErrorDebugDescriptionTests {
    @Test func reflectingAnErrorGivesItsCaseAndFields() {
        let limited = GeminiError.rateLimited(
            retryAfter: .seconds(120),
            server: GeminiServerStatus(
                status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "Resource exhausted."))
        #expect(
            String(reflecting: limited)
                == #"GeminiError.rateLimited(retryAfter: 120.0 seconds, server: HTTP 429 RESOURCE_EXHAUSTED: Resource exhausted.)"#
        )
        #expect(limited.description(language: "en").hasPrefix("Rate limited by the server: retry in 120 s."))
        #expect(String(reflecting: GeminiError.missingAPIKey) == "GeminiError.missingAPIKey")
        #expect(
            String(reflecting: GeminiError.invalidModelID("x y")) == #"GeminiError.invalidModelID("x y")"#)
        #expect(
            String(reflecting: GeminiError.transport(.timedOut, detail: "no answer"))
                == #"GeminiError.transport(timedOut, detail: "no answer")"#)
        #expect(
            String(reflecting: GeminiError.decodingFailed(reason: "missing $.title", excerpt: "{}"))
                == #"GeminiError.decodingFailed(reason: "missing $.title", excerpt: "{}")"#)
        #expect(
            String(reflecting: GeminiToolError.answerCountMismatch(expected: 2, given: 1))
                == "GeminiToolError.answerCountMismatch(expected: 2, given: 1)")
        #expect(
            String(
                reflecting: GeminiError.invalidAPIKey(
                    message: "API key not valid: AIzaSyA1234567890abcdefghijklmnopqrstuv")
            )
            .contains("AIzaSyA1234567890abcdefghijklmnopqrstuv") == false)
    }

    static let perDay = """
        {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
          "message": "You exceeded your current quota, please check your plan and billing details. Please retry in 36.538s.",
          "details": [
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure",
             "violations": [{"quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "36s"}]}}
        """

    @Test func aPerDayQuotaCarriesNoRetryAdvice() async throws {
        let (client, transport) = cannedClient([(status: 429, body: Self.perDay)])
        do {
            _ = try await client.generateText(label: "hello", prompt: "Hi")
            Issue.record("expected quotaExhausted")
        } catch let error as GeminiError {
            #expect(
                error
                    == .quotaExhausted(
                        quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                        message:
                            "You exceeded your current quota, please check your plan and billing details."))
            #expect(error.isRetryable == false)
            #expect(!error.description(language: "en").contains("retry in"))
        }
        #expect(transport.requests.count == 1)
    }
}
