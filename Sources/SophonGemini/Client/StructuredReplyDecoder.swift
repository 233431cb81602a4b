import Foundation
import SophonCore

/// Turns a structured reply's text into a value: the one place that finds the JSON in model
/// text and decodes it (to be switched to SophonCore's extractor and lenient decoder).
enum StructuredReplyDecoder {
    /// Decodes the first candidate's answer text as `T`.
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   MAX_TOKENS and does not decode; ``GeminiError/decodingFailed(reason:excerpt:)`` when the
    ///   text holds no JSON or the JSON does not fit `T`.
    static func decode<T: Decodable>(
        _ type: T.Type, from response: GenerateContentResponse, allowPartial: Bool
    ) throws -> (value: T, coercions: [String]) {
        let text = response.text
        let truncated = response.finishReason == .maxTokens
        guard let json = jsonText(in: text) else {
            if truncated { throw GeminiError.truncated(partialText: text, partialValue: nil) }
            throw GeminiError.decodingFailed(reason: "The reply holds no JSON.", excerpt: excerpt(text))
        }
        do {
            return (try JSONDecoder().decode(T.self, from: Data(json.utf8)), [])
        } catch {
            if truncated { throw GeminiError.truncated(partialText: text, partialValue: nil) }
            throw GeminiError.decodingFailed(reason: describe(error), excerpt: excerpt(text))
        }
    }

    /// The JSON inside `text`: the body of the first markdown fence when there is one, else
    /// from the first `{` or `[` to the last matching closer.
    static func jsonText(in text: String) -> String? {
        var body = Substring(text)
        if let fence = body.range(of: "```") {
            let afterFence = body[fence.upperBound...]
            let contentStart =
                afterFence.firstIndex(of: "\n").map { afterFence.index(after: $0) } ?? afterFence.startIndex
            let content = afterFence[contentStart...]
            body = content.range(of: "```").map { content[..<$0.lowerBound] } ?? content
        }
        guard let start = body.firstIndex(where: { $0 == "{" || $0 == "[" }) else { return nil }
        let closer: Character = body[start] == "{" ? "}" : "]"
        guard let end = body.lastIndex(of: closer), end > start else { return nil }
        return String(body[start...end])
    }

    static func excerpt(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return collapsed.count > 120 ? String(collapsed.prefix(120)) + "…" : collapsed
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
