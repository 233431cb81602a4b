import Testing

@testable import SophonGemini

/// The capability table: thinking settings a model cannot take are adapted or refused.
@Suite struct GeminiModelCapabilitiesTests {
    typealias Adaptation = GeminiModelCapabilities.ThinkingAdaptation

    static func adapt(_ model: GeminiModel, _ config: ThinkingConfig) -> Adaptation {
        GeminiModelCapabilities.of(model).adapt(config, modelID: model.id)
    }

    @Test(arguments: [
        ("LOW", 1024), ("MEDIUM", 8192), ("HIGH", 24576), ("MINIMAL", 0),
    ])
    func aLevelOnABudgetOnlyModelBecomesABudget(level: String, budget: Int) {
        #expect(
            Self.adapt(.gemini25Flash, ThinkingConfig(thinkingLevel: level))
                == .adapted(
                    ThinkingConfig(thinkingBudget: budget),
                    note: "gemini-2.5-flash takes a thinking budget, not a level: "
                        + "thinking \(level.lowercased()) sent as budget \(budget)"))
    }

    @Test func proCannotTurnThinkingOff() {
        #expect(
            Self.adapt(.gemini25Pro, ThinkingConfig(thinkingLevel: "MINIMAL"))
                == .adapted(
                    ThinkingConfig(thinkingBudget: 128),
                    note:
                        "gemini-2.5-pro takes a thinking budget, not a level: thinking minimal sent as budget 128"
                ))
        #expect(
            Self.adapt(.gemini25Pro, ThinkingConfig(thinkingBudget: 0))
                == .refused(
                    reason: "gemini-2.5-pro cannot turn thinking off (budget 0); "
                        + "use a budget of 128...32768 or -1 (automatic)"))
        #expect(Self.adapt(.gemini25Pro, ThinkingConfig(thinkingBudget: -1)) == .unchanged)
        #expect(Self.adapt(.gemini25Pro, ThinkingConfig(thinkingBudget: 4096)) == .unchanged)
    }

    @Test func budgetsOutsideTheRangeAreClamped() {
        #expect(
            Self.adapt(.gemini25FlashLite, ThinkingConfig(thinkingBudget: 100))
                == .adapted(
                    ThinkingConfig(thinkingBudget: 512),
                    note:
                        "gemini-2.5-flash-lite takes a thinking budget of 512...24576: budget 100 sent as 512"
                ))
        #expect(
            Self.adapt(.gemini25Flash, ThinkingConfig(thinkingBudget: 100_000))
                == .adapted(
                    ThinkingConfig(thinkingBudget: 24576),
                    note: "gemini-2.5-flash takes a thinking budget of 1...24576: budget 100000 sent as 24576"
                ))
        #expect(Self.adapt(.gemini25FlashLite, ThinkingConfig(thinkingBudget: 0)) == .unchanged)
    }

    @Test func levelModelsKeepTheirLevelsAndTakeTheNearestOtherwise() {
        #expect(Self.adapt(.gemini38Flash, ThinkingConfig(thinkingLevel: "LOW")) == .unchanged)
        #expect(Self.adapt(.gemini38Flash, ThinkingConfig(thinkingBudget: 2048)) == .unchanged)
        #expect(
            Self.adapt(.gemini31Pro, ThinkingConfig(thinkingLevel: "MINIMAL"))
                == .adapted(
                    ThinkingConfig(thinkingLevel: "LOW"),
                    note: "gemini-3.1-pro-preview takes thinking levels low, medium, high: "
                        + "thinking minimal sent as low"))
    }

    @Test func customModelsGetTheSettingAsGiven() {
        #expect(Self.adapt(.custom("my-model"), ThinkingConfig(thinkingLevel: "LOW")) == .unchanged)
        #expect(Self.adapt(.custom("my-model"), ThinkingConfig(thinkingBudget: 0)) == .unchanged)
    }
}
