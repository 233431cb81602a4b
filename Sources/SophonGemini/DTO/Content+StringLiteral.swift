extension Content: ExpressibleByStringLiteral {
    /// A content of one text part and no role: the shape of a `systemInstruction`, so every
    /// call's `systemInstruction:` (a ``Content``) takes a string literal:
    /// `systemInstruction: "Answer in one sentence."`.
    public init(stringLiteral text: String) {
        self.init(role: nil, parts: [.text(text)])
    }

    /// A system instruction of one text part (no role), for text that is not a literal.
    public static func system(_ text: String) -> Content { Content(role: nil, parts: [.text(text)]) }
}
