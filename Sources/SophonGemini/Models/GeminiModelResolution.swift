/// How a model selection became the model to call: directly, through Google's successor chain,
/// or by falling back. The shell says so when it is not ``Outcome/direct``.
public struct GeminiModelResolution: Sendable, Hashable {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The requested model is available (or custom) and is used as is.
        case direct
        /// The requested preset is outside the catalog; `chain` lists the successors walked,
        /// the last one being the model used.
        case successor(chain: [GeminiModel])
        /// Neither the model nor any successor is available: the fallback is used.
        case fallback
    }

    /// The model asked for.
    public let requested: GeminiModel
    /// The model to call.
    public let resolved: GeminiModel
    /// How ``resolved`` was reached.
    public let outcome: Outcome

    /// One English line for the user when the model changed, else `nil`:
    /// `gemini-2.5-flash is not available; using its successor gemini-3.5-flash` or
    /// `gemini-2.5-pro is not available; falling back to gemini-3.1-flash-lite`.
    public var notice: String? {
        switch outcome {
        case .direct: nil
        case .successor: "\(requested.id) is not available; using its successor \(resolved.id)"
        case .fallback: "\(requested.id) is not available; falling back to \(resolved.id)"
        }
    }

    /// Creates a resolution record.
    public init(requested: GeminiModel, resolved: GeminiModel, outcome: Outcome) {
        self.requested = requested
        self.resolved = resolved
        self.outcome = outcome
    }
}

extension GeminiModel {
    /// Resolves `self` against the app's catalog.
    ///
    /// A custom model passes through. A preset in `available` is used directly. Otherwise its
    /// successors are walked (at most `allPresets.count` hops) and the first available one is
    /// used; failing that, `fallback`.
    /// - Parameters:
    ///   - available: the models the app offers (its configuration's available models).
    ///   - fallback: the model to use when nothing in the chain is available.
    public func resolved(
        in available: [GeminiModel] = GeminiModel.allPresets, fallback: GeminiModel = .defaultFallback
    ) -> GeminiModelResolution {
        if case .custom = self {
            return GeminiModelResolution(requested: self, resolved: self, outcome: .direct)
        }
        if available.contains(self) {
            return GeminiModelResolution(requested: self, resolved: self, outcome: .direct)
        }
        var walked: [GeminiModel] = []
        for next in successorChain {
            walked.append(next)
            if available.contains(next) {
                return GeminiModelResolution(
                    requested: self, resolved: next, outcome: .successor(chain: walked))
            }
        }
        return GeminiModelResolution(requested: self, resolved: fallback, outcome: .fallback)
    }

    /// Resolves a stored selection (a model ID, or `nil` when nothing is stored, which selects
    /// `defaultModel`) with ``resolved(in:fallback:)``.
    public static func resolveSelection(
        _ storedID: String?, defaultModel: GeminiModel = .defaultModel,
        available: [GeminiModel] = GeminiModel.allPresets, fallback: GeminiModel = .defaultFallback
    ) -> GeminiModelResolution {
        let requested = storedID.map(GeminiModel.init(id:)) ?? defaultModel
        return requested.resolved(in: available, fallback: fallback)
    }
}
