/// The characters an API key may hold: printable ASCII without the blank (`!` U+0021 through
/// `~` U+007E), the alphabet of Google's keys and of HTTP header values that every server reads
/// the same way (docs/files.md, "API keys").
///
/// A key copied with a typographic quote or a trailing space is refused before it is sent: a
/// server that echoes a non-ASCII key re-encodes it, and a re-encoded key escapes masking.
public struct APIKeyCharacters: Sendable, Hashable {
    /// The 1-based position of the first refused character, counted in Unicode scalars.
    public let position: Int
    /// The refused character.
    public let scalar: Unicode.Scalar

    /// The first character of `key` outside printable ASCII (or a blank), or `nil` when every
    /// character is allowed.
    public static func firstBadCharacter(in key: String) -> APIKeyCharacters? {
        for (index, scalar) in key.unicodeScalars.enumerated() where !(0x21...0x7E).contains(scalar.value) {
            return APIKeyCharacters(position: index + 1, scalar: scalar)
        }
        return nil
    }

    /// The refused character as people read it: `U+201D`, `a space (U+0020)`, `a tab (U+0009)`.
    public var characterName: String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        switch scalar {
        case " ": return "a space (\(code))"
        case "\t": return "a tab (\(code))"
        case "\n", "\r": return "a line break (\(code))"
        default: return code
        }
    }

    /// `SUBJECT has a character that is not printable ASCII at position N (U+201D); it is not
    /// used: ...`, SUBJECT naming the key (`the API key from environment variable
    /// GEMINI_API_KEY`): the key itself is never shown.
    public func message(subject: String) -> String {
        "\(subject) has a character that is not printable ASCII at position \(position) "
            + "(\(characterName)); it is not used (check for a copied quote or blank)"
    }
}
