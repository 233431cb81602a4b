import SophonGemini

/// What `compare` says (docs/commands.md, "compare").
enum CompareMessages {
    /// `COMMAND: unknown model 'NAME' (did you mean 'ID'?); the catalog has ...; write custom:ID
    /// for another model` (`compare`, `test --models`, `run --models`).
    static func unknownModel(_ name: String, command: String = "compare") -> String {
        let hint = GeminiModel.closestPreset(to: name).map { " (did you mean '\($0.id)'?)" } ?? ""
        return "\(command): unknown model '\(name)'\(hint); the catalog has "
            + GeminiModel.allPresets.map(\.id).joined(separator: ", ") + "; write custom:ID for another model"
    }
}
