import Foundation
import SophonCore

/// Turns a structured reply's text into a value: SophonCore's `LLMJSONExtractor` finds every
/// JSON value in the text (fences, prose, repairs), the schema picks the candidate that
/// validates (coercing by its types), and `LenientJSONDecoder` decodes it, reporting coercions.
enum StructuredReplyDecoder {
    /// Repairs that mean the text was cut short (a reply stopped at MAX_TOKENS).
    static let truncationRepairs: Set<JSONRepair.Kind> = [
        .closedString, .droppedIncompleteEscape, .closedBracket, .droppedIncompleteMember,
        .droppedIncompleteValue, .completedLiteral, .completedNumber,
    ]

    /// Decodes the first candidate's answer text as `T`.
    /// - Parameters:
    ///   - schema: the request's response schema, when there was one: it picks the candidate.
    ///   - allowPartial: attach the repaired partial value to a truncation error.
    /// - Returns: the value and the coercions made (schema coercions, then decoder coercions).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   MAX_TOKENS and its JSON was cut; ``GeminiError/decodingFailed(reason:excerpt:)`` when
    ///   the text holds no JSON or the JSON does not fit `T`.
    /// The value a structured reply holds: the extractor's candidates, the one the schema
    /// selects (coerced to its types, with notes), or the first without a schema.
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` and its JSON had to be repaired for it (the repaired value attached when
    ///   `allowPartial`); ``GeminiError/decodingFailed(reason:excerpt:)`` when it holds no JSON.
    static func choose(
        from response: GenerateContentResponse, schema: GeminiSchema?, allowPartial: Bool
    ) throws -> StructuredChoice {
        let text = response.text
        let stoppedAtLimit = response.finishReason == .maxTokens
        let candidates: [ExtractedJSON]
        do {
            candidates = try LLMJSONExtractor().extract(from: text)
        } catch {
            if stoppedAtLimit { throw GeminiError.truncated(partialText: text, partialValue: nil) }
            throw GeminiError.decodingFailed(reason: error.description, excerpt: excerpt(text))
        }
        var chosen = candidates[0]
        let values = candidates.map(\.value)  // Each `value` parses the candidate's text: once.
        var choice = StructuredChoice(
            value: values[0], notes: [], violations: [], stoppedAtLimit: stoppedAtLimit)
        if let schema, let selection = schema.selectCandidate(from: values) {
            chosen = candidates[selection.index]
            choice.value = selection.value
            choice.notes = selection.coercions.map(\.description)
            choice.violations = selection.violations
        }
        let cut = chosen.repairs.contains { truncationRepairs.contains($0.kind) }
        if stoppedAtLimit && cut {
            throw GeminiError.truncated(partialText: text, partialValue: allowPartial ? choice.value : nil)
        }
        return choice
    }

    static func decode<T: Decodable>(
        _ type: T.Type, from response: GenerateContentResponse, schema: GeminiSchema?, allowPartial: Bool
    ) throws -> (value: T, coercions: [String]) {
        let choice = try choose(from: response, schema: schema, allowPartial: allowPartial)
        do {
            let decoded = try LenientJSONDecoder().decode(T.self, from: choice.value)
            return (decoded.value, choice.notes + decoded.coercions.map(\.description))
        } catch {
            let text = response.text
            if choice.stoppedAtLimit {
                throw GeminiError.truncated(
                    partialText: text, partialValue: allowPartial ? choice.value : nil)
            }
            let reason =
                choice.violations.isEmpty
                ? describe(error) : choice.violations.map(\.description).joined(separator: "; ")
            throw GeminiError.decodingFailed(reason: reason, excerpt: excerpt(text))
        }
    }

    static func excerpt(_ text: String) -> String {
        TextExcerpt.collapsed(text, limit: 120, separatedBy: \.isNewline)
    }

    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), got null"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// The JSON value chosen from a structured reply, before decoding into a type.
struct StructuredChoice: Sendable {
    /// The value (coerced to the schema's types when a schema chose it).
    var value: JSONValue
    /// The coercions applied: `$.year: string "2016" read as number 2016`.
    var notes: [String]
    /// How the value still fails the schema; empty when it validates.
    var violations: [GeminiSchemaIssue]
    /// Whether the reply stopped at `MAX_TOKENS`.
    var stoppedAtLimit: Bool
}
