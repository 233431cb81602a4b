import SophonCore

/// The candidate chosen among several JSON values for a schema (schema-guided extraction).
public struct GeminiSchemaCandidateSelection: Sendable, Hashable {
    /// The position of the chosen value in the candidate list.
    public let index: Int
    /// The chosen value, after coercion when coercion was asked for and changed something.
    public let value: JSONValue
    /// Its violations: empty when it validates; otherwise those of the closest candidate.
    public let violations: [GeminiSchemaIssue]
    /// The coercions applied to reach ``value`` (see ``GeminiSchema/coerce(_:)``).
    public let coercions: [GeminiSchemaIssue]

    /// Creates a selection.
    public init(
        index: Int, value: JSONValue, violations: [GeminiSchemaIssue],
        coercions: [GeminiSchemaIssue] = []
    ) {
        self.index = index
        self.value = value
        self.violations = violations
        self.coercions = coercions
    }

    /// Whether the chosen value validates.
    public var isValid: Bool { violations.isEmpty }
}

extension GeminiSchema {
    /// Picks, among the values an extractor found in a reply (in reply order), the one to use:
    ///
    /// 1. the first that validates as it is (with `coercing`, after the coercions that keep it
    ///    valid: a null word in an optional string field reads as absent, as the lenient
    ///    decoder reads it);
    /// 2. with `coercing`, the first that validates after ``coerce(_:)`` (the changes listed in
    ///    ``GeminiSchemaCandidateSelection/coercions``);
    /// 3. otherwise the closest (coerced, with `coercing`), with its violations so the caller
    ///    can say what is wrong: a value of the schema's top-level type beats one of another
    ///    type, then fewer violations win, then the earlier value.
    /// - Parameters:
    ///   - candidates: the values found, in order.
    ///   - coercing: whether to try the coercions of ``coerce(_:)`` (default `true`).
    /// - Returns: the choice, or `nil` when `candidates` is empty.
    public func selectCandidate(from candidates: [JSONValue], coercing: Bool = true)
        -> GeminiSchemaCandidateSelection?
    {
        for (index, candidate) in candidates.enumerated() where validate(candidate).isEmpty {
            if coercing {
                let coercion = coerce(candidate)
                if !coercion.changes.isEmpty, validate(coercion.value).isEmpty {
                    return GeminiSchemaCandidateSelection(
                        index: index, value: coercion.value, violations: [], coercions: coercion.changes)
                }
            }
            return GeminiSchemaCandidateSelection(index: index, value: candidate, violations: [])
        }
        var best: (rank: Int, selection: GeminiSchemaCandidateSelection)?
        for (index, candidate) in candidates.enumerated() {
            let coercion = coercing ? coerce(candidate) : GeminiSchemaCoercion(value: candidate, changes: [])
            let violations = validate(coercion.value)
            let selection = GeminiSchemaCandidateSelection(
                index: index, value: coercion.value, violations: violations, coercions: coercion.changes)
            if violations.isEmpty { return selection }
            let rank = SchemaValidator.mismatchRank(coercion.value, self, violations)
            if best == nil || rank < (best?.rank ?? 0) { best = (rank, selection) }
        }
        return best?.selection
    }
}
