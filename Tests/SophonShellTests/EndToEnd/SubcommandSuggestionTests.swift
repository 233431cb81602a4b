import Foundation
import SophonTestSupport
import Testing

/// A first word near one of a command's subcommands gets the command's usage with "did you
/// mean", before the command runs (docs/language.md, "did you mean"); nothing is sent.
@Suite(.childSlots) struct SubcommandSuggestionTests {
    @Test(arguments: [
        (
            "cache crate x",
            "cache create NAME (TEXT | @FILE...) [--system TEXT] [--ttl 1h] | list | show NAME | extend NAME --ttl 2h | delete NAME [--dry-run] [--json]",
            "create"
        ),
        ("agent stats v1_x", "agent status|wait|cancel|show ID [--json]", "status"),
        ("key sow", "key set | show | delete | path", "show"),
        (
            "logs sarch dune", "logs [-n N] [--json] [--html FILE] | logs search TEXT [-n N] | logs show ID",
            "search"
        ),
        // Another case is not the subcommand, but it is suggested as near.
        (
            "cache LIST",
            "cache create NAME (TEXT | @FILE...) [--system TEXT] [--ttl 1h] | list | show NAME | extend NAME --ttl 2h | delete NAME [--dry-run] [--json]",
            "list"
        ),
        ("key Sow", "key set | show | delete | path", "show"),
        ("agent STATUS v1_x", "agent status|wait|cancel|show ID [--json]", "status"),
    ])
    func aMisspeltSubcommandIsSuggested(line: String, usage: String, suggestion: String) async throws {
        let outcome = try await SophonProcess.run(
            ["-c", line],
            environment: ["GEMINI_API_KEY": "test-key", "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "-c:1:1: error: usage: \(usage) (did you mean '\(suggestion)'?)\n")
    }

    @Test func aWordFarFromEverySubcommandIsLeftToTheCommand() async throws {
        let outcome = try await SophonProcess.run(["-c", "key everything"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:1:1: error: usage: key set | show | delete | path\n")
    }

    /// `retry-policy minmal`: the policy preset names are suggested like any other name
    /// (PRODUCT.md §5, "Errors and locations"); the policy in force stays.
    @Test func aMisspeltRetryPolicyPresetIsSuggested() async throws {
        let outcome = try await SophonProcess.run(["-c", "retry-policy minmal", "-c", "retry-policy defualt"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "-c:1:1: error: retry-policy: expected default, minimal or KEY=VALUE, got 'minmal' (did you mean 'minimal'?)\n"
                + "-c:2:1: error: retry-policy: expected default, minimal or KEY=VALUE, got 'defualt' (did you mean 'default'?)\n"
        )
    }

    /// `schema show jsonschema`: the format words of `schema show` are suggested.
    @Test func aMisspeltSchemaShowFormatIsSuggested() async throws {
        let outcome = try await SophonProcess.run([
            "-c", "schema {a: string}", "-c", "schema show jsonschema", "-c", "schema show gemni",
        ])
        let usage =
            "schema SPEC | @FILE | show [gemini|json-schema|--picoschema|--swift [NAME]] | picoschema TEXT | clear"
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "-c:2:1: error: usage: \(usage) (did you mean 'json-schema'?)\n"
                + "-c:3:1: error: usage: \(usage) (did you mean 'gemini'?)\n")
    }
}
