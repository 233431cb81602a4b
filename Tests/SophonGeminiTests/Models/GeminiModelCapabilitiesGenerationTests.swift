import Testing

@testable import SophonGemini

/// The capability table for generation settings: penalties left out on Gemini 2.5, output
/// modalities a model cannot make refused, everything else sent as given.
@Suite struct GeminiModelCapabilitiesGenerationTests {
    typealias Adaptation = GeminiModelCapabilities.GenerationAdaptation

    static func adapt(_ model: GeminiModel, _ config: GenerationConfig) -> Adaptation {
        GeminiModelCapabilities.of(model).adapt(config, modelID: model.id)
    }

    static let full = GenerationConfig(
        stopSequences: ["END"], topP: 0.9, topK: 40, seed: 1, presencePenalty: 0.5, frequencyPenalty: -0.5,
        responseModalities: ["TEXT"], mediaResolution: "MEDIA_RESOLUTION_LOW")

    @Test(arguments: GeminiModel.allPresets.filter { !$0.id.hasPrefix("gemini-2.5") } + [.custom("my-model")])
    func laterModelsAndCustomModelsTakeEverySetting(model: GeminiModel) {
        var config = Self.full
        config.responseModalities = ["TEXT", "IMAGE", "AUDIO"]
        #expect(Self.adapt(model, config) == .unchanged)
    }

    @Test(arguments: [GeminiModel.gemini25Flash, .gemini25FlashLite, .gemini25Pro])
    func gemini25LeavesPenaltiesOutWithANoteEach(model: GeminiModel) {
        var expected = Self.full
        expected.presencePenalty = nil
        expected.frequencyPenalty = nil
        #expect(
            Self.adapt(model, Self.full)
                == .adapted(
                    expected,
                    notes: [
                        "\(model.id) does not take presence-penalty (penalties are not enabled for it): not sent",
                        "\(model.id) does not take frequency-penalty (penalties are not enabled for it): not sent",
                    ]))
        #expect(Self.adapt(model, GenerationConfig(topK: 3)) == .unchanged)
    }

    @Test func gemini25RefusesImageAndAudioOutput() {
        #expect(
            Self.adapt(.gemini25Flash, GenerationConfig(responseModalities: ["TEXT", "IMAGE", "AUDIO"]))
                == .refused(
                    setting: "response-modalities",
                    reason: "gemini-2.5-flash answers in text only, not image, audio"))
    }
}
