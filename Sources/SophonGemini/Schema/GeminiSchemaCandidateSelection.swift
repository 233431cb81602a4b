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
    /// validates against this schema; when none does, the closest one, reported with its
    /// violations so the caller can say what is wrong: a value of the schema's top-level type
    /// beats one of another type, then fewer violations win, then the earlier value.
    /// - Parameter candidates: the values found, in order.
    /// - Returns: the choice, or `nil` when `candidates` is empty.
    public func selectCandidate(from candidates: [JSONValue]) -> GeminiSchemaCandidateSelection? {
        var best: (rank: Int, selection: GeminiSchemaCandidateSelection)?
        for (index, candidate) in candidates.enumerated() {
            let violations = validate(candidate)
            if violations.isEmpty {
                return GeminiSchemaCandidateSelection(index: index, value: candidate, violations: [])
            }
            let rank = SchemaValidator.mismatchRank(candidate, self, violations)
            if best == nil || rank < (best?.rank ?? 0) {
                best = (
                    rank,
                    GeminiSchemaCandidateSelection(index: index, value: candidate, violations: violations)
                )
            }
        }
        return best?.selection
    }
}
