import Foundation
import SophonCore
import Testing

@testable import SophonGemini

@Suite struct ModelCatalogTests {
    /// (preset, ID, free tier, paid only, deprecated, successor)
    static let catalog: [(GeminiModel, String, Bool, Bool, Bool, GeminiModel?)] = [
        (.gemini25FlashLite, "gemini-2.5-flash-lite", true, false, false, .gemini31FlashLite),
        (.gemini25Flash, "gemini-2.5-flash", true, false, false, .gemini35Flash),
        (.gemini25Pro, "gemini-2.5-pro", false, false, false, .gemini31Pro),
        (.gemini3Flash, "gemini-3-flash-preview", false, false, true, .gemini36Flash),
        (.gemini31FlashLite, "gemini-3.1-flash-lite", true, false, false, .gemini35FlashLite),
        (.gemini31Pro, "gemini-3.1-pro-preview", false, true, false, nil),
        (.gemini35FlashLite, "gemini-3.5-flash-lite", true, false, false, nil),
        (.gemini35Flash, "gemini-3.5-flash", false, false, false, nil),
        (.gemini36Flash, "gemini-3.6-flash", true, false, false, nil),
        (.gemini38Flash, "gemini-3.8-flash", true, false, false, nil),
    ]

    @Test(arguments: catalog)
    func preset(
        model: GeminiModel, id: String, free: Bool, paidOnly: Bool, deprecated: Bool, successor: GeminiModel?
    ) {
        #expect(model.id == id)
        #expect(model.hasFreeTier == free)
        #expect(model.isPaidOnly == paidOnly)
        #expect(model.isDeprecated == deprecated)
        #expect(model.successor == successor)
        #expect(GeminiModel(id: id) == model)
        #expect(GeminiModel(presetName: id) == model)
        #expect(model.presetName.flatMap { GeminiModel(presetName: $0) } == model)
        #expect(model.isPreset)
    }

    @Test func allPresetsInCatalogOrder() {
        #expect(GeminiModel.allPresets == Self.catalog.map(\.0))
    }

    @Test func defaults() {
        #expect(GeminiModel.defaultModel == .gemini31FlashLite)
        #expect(GeminiModel.defaultFallback == .gemini31FlashLite)
        #expect(GeminiModel.defaultModel.hasFreeTier)
        #expect(GeminiModel(id: GeminiModel.shellDefaultModelID) == .gemini38Flash)
        #expect(GeminiModel(id: GeminiModel.shellFallbackModelID) == .gemini35FlashLite)
    }

    @Test func successorChains() {
        #expect(GeminiModel.gemini25FlashLite.successorChain == [.gemini31FlashLite, .gemini35FlashLite])
        #expect(GeminiModel.gemini3Flash.successorChain == [.gemini36Flash])
        #expect(GeminiModel.gemini38Flash.successorChain == [])
        #expect(GeminiModel.custom("x").successorChain == [])
    }

    @Test func namesAndIDs() {
        #expect(GeminiModel(id: "models/gemini-2.5-pro") == .gemini25Pro)
        #expect(GeminiModel(id: "gemini-9-ultra") == .custom("gemini-9-ultra"))
        #expect(GeminiModel(presetName: "GEMINI25FLASH") == .gemini25Flash)
        #expect(GeminiModel(presetName: "gemini-9") == nil)
        #expect(GeminiModel(selection: "custom:gemini-2.5-flash") == .custom("gemini-2.5-flash"))
        #expect(GeminiModel(selection: "gemini36Flash") == .gemini36Flash)
        #expect(GeminiModel(selection: "gemini-3.6-flash") == .gemini36Flash)
        #expect(GeminiModel(selection: "my-tuned-model") == .custom("my-tuned-model"))
        #expect(GeminiModel.custom("abc").displayName == "abc")
        #expect(GeminiModel.gemini3Flash.displayName == "Gemini 3 Flash Preview")
        #expect(GeminiModel.custom("abc").presetName == nil)
        #expect(!GeminiModel.custom("abc").hasFreeTier)
    }

    @Test func suggestions() {
        #expect(GeminiModel.closestPreset(to: "gemini-2.5-flsh") == .gemini25Flash)
        #expect(GeminiModel.closestPreset(to: "gemini25flashlit") == .gemini25FlashLite)
        #expect(GeminiModel.closestPreset(to: "gemini-2.5-flash") == nil)
        #expect(GeminiModel.closestPreset(to: "gpt-4o") == nil)
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
    }

    @Test(arguments: [
        ("gemini-2.5-flash", true), ("tunedModels.x_1", true), ("", false), ("a/b", false),
        ("gemini 2", false), ("-x", false), ("models:x", false), (String(repeating: "a", count: 129), false),
    ])
    func wellFormedIDs(id: String, valid: Bool) {
        #expect(GeminiModel.isWellFormedID(id) == valid)
    }

    @Test func codableAsID() throws {
        let data = try JSONEncoder().encode([GeminiModel.gemini25Flash, .custom("x-1")])
        #expect(String(decoding: data, as: UTF8.self) == #"["gemini-2.5-flash","x-1"]"#)
        #expect(try JSONDecoder().decode([GeminiModel].self, from: data) == [.gemini25Flash, .custom("x-1")])
    }

    static let resolutionCases: [(GeminiModel, [GeminiModel], GeminiModel, GeminiModelResolution.Outcome)] = [
        (.gemini25Flash, GeminiModel.allPresets, .gemini25Flash, .direct),
        (.custom("tuned"), [], .custom("tuned"), .direct),
        (
            .gemini25FlashLite, [.gemini35FlashLite, .gemini38Flash], .gemini35FlashLite,
            .successor(chain: [.gemini31FlashLite, .gemini35FlashLite])
        ),
        (
            .gemini25FlashLite, [.gemini31FlashLite], .gemini31FlashLite,
            .successor(chain: [.gemini31FlashLite])
        ),
        (.gemini3Flash, [.gemini36Flash], .gemini36Flash, .successor(chain: [.gemini36Flash])),
        (.gemini25Pro, [.gemini38Flash], .gemini38Flash, .fallback),
        (.gemini38Flash, [], .gemini38Flash, .fallback),
    ]

    @Test(arguments: resolutionCases)
    func resolution(
        model: GeminiModel, available: [GeminiModel], expected: GeminiModel,
        outcome: GeminiModelResolution.Outcome
    ) {
        let resolution = model.resolved(in: available, fallback: .gemini38Flash)
        #expect(resolution.requested == model)
        #expect(resolution.resolved == expected)
        #expect(resolution.outcome == outcome)
    }

    @Test func notices() {
        let available: [GeminiModel] = [.gemini35Flash, .gemini31FlashLite]
        #expect(GeminiModel.gemini35Flash.resolved(in: available).notice == nil)
        #expect(
            GeminiModel.gemini25Flash.resolved(in: available).notice
                == "gemini-2.5-flash is not available; using its successor gemini-3.5-flash")
        #expect(
            GeminiModel.gemini25Pro.resolved(in: available).notice
                == "gemini-2.5-pro is not available; falling back to gemini-3.1-flash-lite")
        #expect(
            GeminiModel.freeTierPresets == [
                .gemini25FlashLite, .gemini25Flash, .gemini31FlashLite, .gemini35FlashLite, .gemini36Flash,
                .gemini38Flash,
            ])
    }

    @Test func storedSelectionResolution() {
        #expect(GeminiModel.resolveSelection(nil).resolved == .gemini31FlashLite)
        let retired = GeminiModel.resolveSelection(
            "gemini-2.5-flash", available: [.gemini35Flash], fallback: .gemini35FlashLite)
        #expect(retired.resolved == .gemini35Flash)
        #expect(retired.outcome == .successor(chain: [.gemini35Flash]))
        let custom = GeminiModel.resolveSelection("gemini-1.0-pro", available: [.gemini38Flash])
        #expect(custom.resolved == .custom("gemini-1.0-pro"))
    }
}
