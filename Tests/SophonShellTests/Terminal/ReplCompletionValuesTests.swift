import Testing

@testable import SophonShell

/// What Tab offers in the REPL for the values of settings, subcommands' words and options
/// (docs/commands.md, "Completion"): every setting with a fixed set of values completes them,
/// as `set api` does.
@Suite struct ReplCompletionValuesTests {
    static let cases: [(line: String, candidates: [String])] = [
        ("set stream ", ["on", "off"]),
        ("set output ", ["pretty", "json", "raw"]),
        ("set bail ", ["on", "off"]),
        ("set echo o", ["on", "off"]),
        ("set language zh", ["zh-Hans", "zh-Hant"]),
        ("set thinking ", ["minimal", "low", "medium", "high", "default"]),
        ("set dry-run ", ["on", "off"]),
        ("set service-tier ", ["default", "standard", "flex", "priority"]),
        ("set api ", ["generate-content", "interactions"]),
        ("set temperature ", []),
        ("schema show ", ["gemini", "json-schema", "--picoschema", "--swift"]),
        ("schema show j", ["json-schema"]),
        ("schema ", ["show", "picoschema", "clear"]),
        (
            "retry-policy ",
            [
                "default", "minimal", "attempts=", "base=", "cap=", "jitter=", "retry-after=", "max-wait=",
                "fallback=", "downscale=",
            ]
        ),
        ("retry-policy attempts=3 ma", ["max-wait="]),
        ("embed --task SEM", ["SEMANTIC_SIMILARITY"]),
        (
            "embed --task ",
            [
                "RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "CLASSIFICATION",
                "CLUSTERING",
                "QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY",
            ]
        ),
        // A declared option's own values: the embedding models, not the chat models.
        ("embed --model ", ["gemini-embedding-001", "gemini-embedding-2"]),
        ("embed-multi docs rows.jsonl --model gemini-e", ["gemini-embedding-001", "gemini-embedding-2"]),
        ("ask --model gemini-embedding", []),
        ("compare --models gemini-2.5-p", ["gemini-2.5-pro"]),
        (
            "compare --models gemini-2.5-pro,gemini-2.5",
            ["gemini-2.5-pro,gemini-2.5-flash", "gemini-2.5-pro,gemini-2.5-flash-lite"]
        ),
        ("run in.jsonl --models gemini-3.8-flash,gemini-3.8", []),
    ]

    @Test(arguments: cases)
    func tabOffers(line: String, candidates: [String]) {
        let completion = CompletionProvider(registry: PluginRegistry.standard(), directory: "/nonexistent")
        #expect(completion.complete(line: line, cursor: line.count) == candidates)
    }

    @Test func helpSetListsTheValuesOfEverySettingThatHasThem() {
        let registry = PluginRegistry.standard()
        #expect(registry.settingValues("stream") == ["on", "off"])
        #expect(registry.settingValues("output") == ["pretty", "json", "raw"])
        #expect(registry.settingValues("language") == ["en", "es", "zh-Hans", "zh-Hant"])
        #expect(registry.settingValues("thinking") == ["minimal", "low", "medium", "high", "default"])
        #expect(registry.settingValues("timeout") == nil)
    }
}
