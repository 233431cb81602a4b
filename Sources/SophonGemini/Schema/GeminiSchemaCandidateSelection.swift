import SophonCore

/// The candidate chosen among several JSON values for a schema (schema-guided extraction).
public struct GeminiSchemaCandidateSelection: Sendable, Hashable {
    /// The position of the chosen value in the candidate list.
    public let index: Int
    /// The chosen value.
    public let value: JSONValue
    /// Its violations: empty when it validates; otherwise the fewest any candidate had.
    public let violations: [GeminiSchemaViolation]

    /// Creates a selection.
    public init(index: Int, value: JSONValue, violations: [GeminiSchemaViolation]) {
        self.index = index
        self.value = value
        self.violations = violations
    }

    /// Whether the chosen value validates.
    public var isValid: Bool { violations.isEmpty }
}

extension GeminiSchema {
    /// Picks, among the values an extractor found in a reply (in reply order), the first that
    /// validates against this schema; when none does, the one with the fewest violations (the
    /// earliest on a tie), reported with them so the caller can say what is wrong.
    /// - Parameter candidates: the values found, in order.
    /// - Returns: the choice, or `nil` when `candidates` is empty.
    public func selectCandidate(from candidates: [JSONValue]) -> GeminiSchemaCandidateSelection? {
        var best: GeminiSchemaCandidateSelection?
        for (index, candidate) in candidates.enumerated() {
            let violations = validate(candidate)
            if violations.isEmpty { return GeminiSchemaCandidateSelection(index: index, value: candidate, violations: []) }
            if best == nil || violations.count < (best?.violations.count ?? 0) {
                best = GeminiSchemaCandidateSelection(index: index, value: candidate, violations: violations)
            }
        }
        return best
    }
}
