import SophonCore

/// Turns rendered template text into Dotprompt messages: the role and history markers start
/// messages, the media and section markers become parts, and pieces that are only whitespace are
/// dropped (Dotprompt's `toMessages`).
public enum PromptMessages {
    /// The messages of `text`, with `history` (the data's `messages`) where `{{history}}` put it,
    /// or, when the template has no `{{history}}`, before a last `user` message (else at the end).
    /// - Returns: objects `{"role", "content": [parts], "metadata"?}`.
    public static func messages(_ text: String, history: [JSONValue]) -> [JSONValue] {
        var sources: [(role: String, source: String, message: JSONValue?)] = [("user", "", nil)]
        for piece in split(text, markers: ["<<<dotprompt:role:", PromptHelpers.historyMarker]) {
            if piece.hasPrefix("<<<dotprompt:role:") {
                let role = String(piece.dropFirst("<<<dotprompt:role:".count).dropLast(3))
                if sources[sources.count - 1].source.trimmingWhitespace().isEmpty,
                    sources[sources.count - 1].message == nil
                {
                    sources[sources.count - 1].role = role
                } else {
                    sources.append((role, "", nil))
                }
            } else if piece == PromptHelpers.historyMarker {
                for message in history { sources.append(("", "", marked(message))) }
                sources.append(("model", "", nil))
            } else {
                sources[sources.count - 1].source += piece
            }
        }
        let messages: [JSONValue] = sources.compactMap { source in
            if let message = source.message { return message }
            guard !source.source.isEmpty else { return nil }
            return .object([
                JSONMember("role", .string(source.role)), JSONMember("content", .array(parts(source.source))),
            ])
        }
        if messages.contains(where: { $0["metadata"]?["purpose"] == .string("history") }) || history.isEmpty {
            return messages
        }
        if let last = messages.last, last["role"] == .string("user") {
            return messages.dropLast() + history + [last]
        }
        return messages + history
    }

    /// The parts of one message's text: `{"text"}`, `{"media": {"url", "contentType"?}}`,
    /// `{"metadata": {"purpose", "pending": true}}` for a section.
    public static func parts(_ text: String) -> [JSONValue] {
        split(text, markers: ["<<<dotprompt:media:url", "<<<dotprompt:section"]).map { piece in
            if piece.hasPrefix("<<<dotprompt:media:url") {
                let words = piece.dropLast(3).split(separator: " ", omittingEmptySubsequences: false).map(
                    String.init)
                var media = [JSONMember("url", .string(words.count > 1 ? words[1] : ""))]
                if words.count > 2 { media.append(JSONMember("contentType", .string(words[2]))) }
                return .object([JSONMember("media", .object(media))])
            }
            if piece.hasPrefix("<<<dotprompt:section") {
                let words = piece.dropLast(3).split(separator: " ", omittingEmptySubsequences: false).map(
                    String.init)
                return .object([
                    JSONMember(
                        "metadata",
                        .object([
                            JSONMember("purpose", .string(words.count > 1 ? words[1] : "")),
                            JSONMember("pending", .bool(true)),
                        ]))
                ])
            }
            return .object([JSONMember("text", .string(piece))])
        }
    }

    /// A history message with `metadata.purpose` set to `history`.
    static func marked(_ message: JSONValue) -> JSONValue {
        guard case .object(var members) = message else { return message }
        var metadata: [JSONMember] = []
        if case .object(let existing) = message["metadata"] ?? .null { metadata = existing }
        metadata.removeAll { $0.key == "purpose" }
        metadata.append(JSONMember("purpose", .string("history")))
        members.removeAll { $0.key == "metadata" }
        members.append(JSONMember("metadata", .object(metadata)))
        return .object(members)
    }

    /// `text` cut before each marker starting with one of `markers` and after its `>>>`;
    /// pieces that are only whitespace are dropped.
    static func split(_ text: String, markers: [String]) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while let start = markers.compactMap({ rest.range(of: $0)?.lowerBound }).min() {
            guard let end = rest[start...].range(of: ">>>")?.upperBound else { break }
            pieces.append(String(rest[..<start]))
            pieces.append(String(rest[start..<end]))
            rest = rest[end...]
        }
        pieces.append(String(rest))
        return pieces.filter { !$0.trimmingWhitespace().isEmpty }
    }
}
