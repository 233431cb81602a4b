import SophonCore
import Testing

@testable import SophonGemini

/// The dated price table and `prices.json` (docs/cost.md).
@Suite struct GeminiPriceTableTests {
    @Test func costPricesEachKindOfToken() {
        var usage = UsageMetadata(
            promptTokenCount: 1_000, candidatesTokenCount: 100, thoughtsTokenCount: 200,
            totalTokenCount: 1_350)
        usage.cachedContentTokenCount = 400
        usage.toolUsePromptTokenCount = 50
        // 2.5 Flash: (600 + 50) x 0.30 + 400 x 0.03 + 100 x 2.50 + 200 x 2.50, per 1M tokens.
        #expect(GeminiPriceTable.builtIn.cost(model: "gemini-2.5-flash", usage: usage) == 0.000957)
        #expect(GeminiPriceTable.builtIn.cost(model: "models/gemini-2.5-flash", usage: usage) == 0.000957)
        #expect(
            GeminiPriceTable.builtIn.cost(model: "gemini-2.5-flash", usage: usage, tier: .batch) == 0.0004785)
        #expect(
            GeminiPriceTable.builtIn.cost(model: "gemini-2.5-flash", usage: usage, tier: .flex) == 0.0004785)
    }

    @Test func promptsOverTheThresholdUseTheLongTier() {
        let short = UsageMetadata(promptTokenCount: 200_000, candidatesTokenCount: 1_000)
        let long = UsageMetadata(promptTokenCount: 200_001, candidatesTokenCount: 1_000)
        #expect(GeminiPriceTable.builtIn.cost(model: "gemini-2.5-pro", usage: short) == 0.26)
        #expect(GeminiPriceTable.builtIn.cost(model: "gemini-2.5-pro", usage: long) == 0.5150025)
    }

    @Test func aModelWithoutAPriceHasNoCost() {
        #expect(GeminiPriceTable.builtIn.cost(model: "my-tuned-model", usage: UsageMetadata()) == nil)
        #expect(GeminiPriceTable.builtIn.cost(model: "gemini-3.6-flash", usage: UsageMetadata()) == nil)
        #expect(GeminiPriceTable.builtIn.price(of: "gemini-3.8-flash")?.cachedInput == 0.075)
    }

    @Test func overridesMergeOverTheTable() throws {
        let overrides = try GeminiPriceTable.overrides(
            parsing: #"{"gemini-2.5-flash": {"output": 3}, "mine": {"input": 1, "output": 2, "thinking": 5}}"#
        )
        let table = try GeminiPriceTable.builtIn.merging(overrides)
        #expect(
            table.price(of: "gemini-2.5-flash")
                == GeminiPrice(input: 0.30, output: 3, cachedInput: 0.03, thinking: 3))
        #expect(table.price(of: "mine") == GeminiPrice(input: 1, output: 2, cachedInput: 0.1, thinking: 5))
    }

    @Test(arguments: [
        ("{\"a\": {\"input\": 1,}}", "line 1, column 19: unexpected '}' after ','"),
        ("[]", "line 1, column 1: expected an object of model -> prices"),
        (#"{"a": {"input": "1"}}"#, #"a.input: expected a finite number >= 0, got "1""#),
        (#"{"a": {"input": -1}}"#, "a.input: expected a finite number >= 0, got -1"),
        (#"{"a": {"input": 1e400}}"#, "a.input: expected a finite number >= 0, got 1e400"),
        (#"{"a": {"inptu": 1}}"#, "a.inptu: unknown price (input, output, cachedInput, thinking)"),
    ])
    func badFilesSayWhere(text: String, message: String) {
        #expect(throws: GeminiPriceFileError.self) { try GeminiPriceTable.overrides(parsing: text) }
        do {
            _ = try GeminiPriceTable.overrides(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// A model not in the table must give both `input` and `output` (docs/cost.md); one in the
    /// table may give either.
    @Test(arguments: [
        (
            #"{"my-model": {"input": 1}}"#,
            "my-model.output: missing (a model not in the built-in table needs input and output)"
        ),
        (
            #"{"my-model": {"output": 1}}"#,
            "my-model.input: missing (a model not in the built-in table needs input and output)"
        ),
    ])
    func aNewModelNeedsInputAndOutput(text: String, message: String) throws {
        let overrides = try GeminiPriceTable.overrides(parsing: text)
        #expect(throws: GeminiPriceFileError(message: message)) {
            try GeminiPriceTable.builtIn.merging(overrides)
        }
        let known = try GeminiPriceTable.overrides(parsing: #"{"gemini-2.5-flash": {"input": 1}}"#)
        #expect(try GeminiPriceTable.builtIn.merging(known).price(of: "gemini-2.5-flash")?.output == 2.50)
    }
}
