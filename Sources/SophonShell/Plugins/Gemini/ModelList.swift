import Foundation
import SophonGemini

/// The `--models A,B` of `compare`, `test` and `run` (docs/commands.md): catalog IDs or preset
/// names, or `custom:ID` for any other model, in the order given.
enum ModelList {
    /// The models of `--models A,B`, in order: catalog IDs or preset names, or `custom:ID`.
    /// - Throws: ``CommandFailure`` (`invalidModelID`) for a name that is neither, with the
    ///   closest catalog name, before anything is sent.
    static func parse(_ list: String, command: String) throws -> [GeminiModel] {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        guard !names.isEmpty else {
            throw CommandFailure(
                kind: .usage, message: "\(command): --models needs model IDs separated by commas")
        }
        return try names.map { name in
            if name.hasPrefix("custom:") {
                let model = GeminiModel(selection: name)
                guard GeminiModel.isWellFormedID(model.id) else {
                    throw CommandFailure(
                        kind: .invalidModelID, message: "\(command): '\(name)' is not a valid model ID")
                }
                return model
            }
            guard let preset = GeminiModel(presetName: name) else {
                throw CommandFailure(
                    kind: .invalidModelID, message: unknownModel(name, command: command))
            }
            return preset
        }
    }

    /// `COMMAND: unknown model 'NAME' (did you mean 'ID'?); the catalog has ...; write custom:ID
    /// for another model` (`compare`, `test --models`, `run --models`).
    static func unknownModel(_ name: String, command: String) -> String {
        let hint = GeminiModel.closestPreset(to: name).map { " (did you mean '\($0.id)'?)" } ?? ""
        return "\(command): unknown model '\(name)'\(hint); the catalog has "
            + GeminiModel.allPresets.map(\.id).joined(separator: ", ") + "; write custom:ID for another model"
    }
}
