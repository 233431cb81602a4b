extension GeminiAPIClient {
    /// The model calls use when none is given: the stored selection (else the default model)
    /// resolved against ``GeminiClientConfiguration/availableModels`` — a preset the app does
    /// not offer walks its successors, then falls back; a custom ID passes through.
    public var selectedModelID: String {
        GeminiModel.resolveSelection(
            configuration.modelStore.loadSelection(), defaultModel: configuration.defaultModel,
            available: configuration.availableModels, fallback: configuration.fallbackModel
        ).resolved.id
    }

    /// The model ID a call sends: `model`, else ``selectedModelID``, checked and without
    /// `models/`.
    /// - Throws: ``GeminiError/invalidModelID(_:)``.
    func callModelID(_ model: GeminiModel?) throws -> String {
        try Self.validatedModelID(model?.id ?? selectedModelID)
    }

    /// Resets the stored model selection to the fallback when `modelID` is the stored one.
    func resetStoredSelection(ifItIs modelID: String) {
        let store = configuration.modelStore
        guard let stored = store.loadSelection(), Self.stripModelsPrefix(stored) == modelID else { return }
        store.saveSelection(configuration.fallbackModel.id)
        log(
            .warning,
            "The stored model \(modelID) is not available; the selection is now \(configuration.fallbackModel.id)."
        )
    }

    /// `models/x` -> `x`.
    static func stripModelsPrefix(_ id: String) -> String {
        id.hasPrefix("models/") ? String(id.dropFirst("models/".count)) : id
    }

    /// Checks a model ID (a leading `models/` removed) with ``GeminiModel/isWellFormedID(_:)``.
    /// - Throws: ``GeminiError/invalidModelID(_:)``.
    static func validatedModelID(_ id: String) throws -> String {
        let stripped = stripModelsPrefix(id)
        guard GeminiModel.isWellFormedID(stripped) else { throw GeminiError.invalidModelID(id) }
        return stripped
    }
}
