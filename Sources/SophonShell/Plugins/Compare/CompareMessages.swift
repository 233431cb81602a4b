import SophonGemini

/// What `compare` says (docs/commands.md, "compare").
enum CompareMessages {
    /// `compare: unknown model 'NAME' (did you mean 'ID'?); the catalog: ...; write custom:ID for another model`.
    static func unknownModel(_ name: String) -> String {
        let hint = GeminiModel.closestPreset(to: name).map { " (did you mean '\($0.id)'?)" } ?? ""
        return "compare: unknown model '\(name)'\(hint); the catalog has "
            + GeminiModel.allPresets.map(\.id).joined(separator: ", ") + "; write custom:ID for another model"
    }
}
