/// Masks secrets in a text that arrives in pieces (a streamed answer), where one secret may be
/// split across two pieces: each piece is returned with every whole secret masked
/// (``SecretMask/redact(_:secrets:)``), less a tail that could be the start of a secret; that
/// tail is held back until the next piece shows what it is, or until ``finish()``.
///
/// ```swift
/// var redactor = SecretStreamRedactor(secrets: [key])
/// for piece in pieces { print(redactor.feed(piece), terminator: "") }
/// print(redactor.finish())
/// ```
public struct SecretStreamRedactor: Sendable {
    private let secrets: [String]
    private var held = ""

    /// A redactor for `secrets` (empty ones are ignored).
    /// - Parameter secrets: the texts to mask, such as the API key.
    public init(secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// What can be shown of the text so far, after `piece`: masked, without a tail that may be
    /// the start of a secret.
    /// - Parameter piece: the next piece of the text.
    /// - Returns: text to print now (possibly empty).
    public mutating func feed(_ piece: String) -> String {
        let text = SecretMask.redact(held + piece, secrets: secrets)
        let keep = secrets.map { Self.overlap(of: text, with: $0) }.max() ?? 0
        held = String(text.suffix(keep))
        return String(text.dropLast(keep))
    }

    /// The tail held back, once the text has ended.
    /// - Returns: the rest to print (masked).
    public mutating func finish() -> String {
        defer { held = "" }
        return SecretMask.redact(held, secrets: secrets)
    }

    /// The length of the longest end of `text` that is a proper start of `secret`.
    private static func overlap(of text: String, with secret: String) -> Int {
        var length = min(text.count, secret.count - 1)
        while length > 0 {
            if text.hasSuffix(secret.prefix(length)) { return length }
            length -= 1
        }
        return 0
    }
}
