extension LLMDecoding {
    /// A one-line summary of a decoding error: `PATH: WHAT`, the path in ``JSONPath`` form.
    ///
    /// - `typeMismatch`: `$.items[2].year: expected Int, found string "abc"`;
    /// - `valueNotFound`: `$.score: expected Double, found null`;
    /// - `keyNotFound`: `$.title: missing key` (the path includes the missing key);
    /// - `dataCorrupted`: `$.n: expected Int8, found number 300 (out of range)`.
    ///
    /// The text after the path is the error's `debugDescription` with its first letter
    /// lowercased and a final period dropped; for `typeMismatch` and `valueNotFound` it is
    /// prefixed with `expected TYPE: ` unless it already starts with `expected`. Works for errors
    /// from any decoder (Foundation's `JSONDecoder` included); line breaks become spaces.
    ///
    /// - Parameter error: the error.
    /// - Returns: the summary, one line.
    public static func summary(of error: DecodingError) -> String {
        let text: String
        switch error {
        case .typeMismatch(let type, let context):
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + expectation(type, context.debugDescription, fallback: "")
        case .valueNotFound(let type, let context):
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + expectation(type, context.debugDescription, fallback: ", found null")
        case .keyNotFound(let key, let context):
            text = "\(JSONPath(codingPath: context.codingPath + [key])): missing key"
        case .dataCorrupted(let context):
            let message = sentenceFragment(context.debugDescription)
            text =
                "\(JSONPath(codingPath: context.codingPath)): "
                + (message.isEmpty ? "data corrupted" : message)
        @unknown default:
            text = "\(error)"
        }
        return oneLine(text)
    }

    /// `expected TYPE` joined with the description's fragment.
    private static func expectation(_ type: Any.Type, _ description: String, fallback: String)
        -> String
    {
        let expected = "expected \(type)"
        let message = sentenceFragment(description)
        if message.isEmpty { return expected + fallback }
        if message.hasPrefix("expected") { return message }
        return expected + ": " + message
    }

    /// `description` trimmed, a final period dropped, the first letter lowercased when the
    /// first word is a capitalized ordinary word (`Expected` -> `expected`; `URL` stays).
    private static func sentenceFragment(_ description: String) -> String {
        var text = Substring(description)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        let characters = Array(text.prefix(2))
        if characters.count == 2, characters[0].isUppercase, characters[1].isLowercase {
            return characters[0].lowercased() + text.dropFirst()
        }
        return String(text)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
