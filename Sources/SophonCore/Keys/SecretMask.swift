/// Hides secrets in text shown to people: logs, errors, `key show`, server messages that echo
/// the key (Google's invalid-key error carries it in its `DebugInfo` detail).
public enum SecretMask {
    /// The mask's fixed prefix: four bullets (U+2022), whatever the secret's length.
    public static let bullets = "••••"

    /// Secrets shorter than this many characters are masked whole: showing their last four
    /// would reveal too large a part of them.
    public static let minimumLengthToShowTail = 12

    /// A secret's mask: four bullets and its last four characters (`••••cD3f`), or only the
    /// bullets for a secret shorter than ``minimumLengthToShowTail``. The length is never shown.
    ///
    /// - Parameter secret: The secret, e.g. a 39-character Gemini API key.
    /// - Returns: The mask.
    public static func mask(_ secret: String) -> String {
        guard secret.count >= minimumLengthToShowTail else { return bullets }
        return bullets + String(secret.suffix(4))
    }

    /// Replaces every occurrence of each secret inside `text` with its ``mask(_:)``, in each of
    /// its ``variants(of:)`` (percent-encoded, UTF-8 read as Latin-1, JSON-escaped), since a
    /// server may echo a key re-encoded.
    ///
    /// Longer secrets are replaced first, so a secret that contains another is masked whole.
    /// Matching is by Unicode scalars (exact, no normalisation), so a secret is found even when
    /// the text around it would merge its last character into a grapheme cluster. Empty secrets
    /// are ignored.
    ///
    /// - Parameters:
    ///   - text: Arbitrary text.
    ///   - secrets: The secrets to hide.
    /// - Returns: The text with each secret replaced by its mask.
    public static func redact(_ text: String, secrets: [String]) -> String {
        // Every form of every secret (as given and as a server may echo it re-encoded), each
        // replaced by the mask of the secret itself; longer forms first.
        let forms = secrets.filter { !$0.isEmpty }.flatMap { secret in
            variants(of: secret).map { (form: $0, mask: mask(secret)) }
        }
        // Cheap pre-filter: a form whose first scalar is absent from the text cannot occur.
        let present = Set(text.unicodeScalars)
        let ordered = forms.filter { $0.form.unicodeScalars.first.map(present.contains) ?? false }.sorted {
            $0.form.unicodeScalars.count > $1.form.unicodeScalars.count
        }
        guard !ordered.isEmpty else { return text }
        var scalars = text.unicodeScalars
        for (form, mask) in ordered {
            scalars = replacing(form.unicodeScalars, with: mask.unicodeScalars, in: scalars)
        }
        return String(scalars)
    }

    /// The forms a secret takes when a server echoes it back re-encoded: as given,
    /// percent-encoded (`%E2%80%9D`, upper and lower case hex), its UTF-8 bytes read as
    /// Latin-1 (`â€` and U+009D for `”`), and JSON-escaped (`\u201d`, upper and lower case
    /// hex; `\"`, `\\` and `\/`). Forms equal to the secret are not repeated: an ASCII key of letters, digits, `-`
    /// and `_` has one form.
    ///
    /// - Parameter secret: The secret.
    /// - Returns: The secret first, then its other forms.
    public static func variants(of secret: String) -> [String] {
        var forms = [secret]
        func add(_ form: String) { if !form.isEmpty, !forms.contains(form) { forms.append(form) } }
        let bytes = Array(secret.utf8)
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        func hex(_ value: Int, digits: Int, uppercase: Bool) -> String {
            let text = String(value, radix: 16, uppercase: uppercase)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        for uppercase in [true, false] {
            add(
                bytes.map { byte in
                    unreserved.contains(byte)
                        ? String(UnicodeScalar(byte)) : "%" + hex(Int(byte), digits: 2, uppercase: uppercase)
                }.joined())
            add(
                secret.unicodeScalars.map { scalar in
                    switch scalar {
                    case "\"", "\\": "\\" + String(scalar)
                    case _ where scalar.isASCII: String(scalar)
                    default:
                        scalar.utf16.map { "\\u" + hex(Int($0), digits: 4, uppercase: uppercase) }.joined()
                    }
                }.joined())
            add(secret.replacingOccurrences(of: "/", with: "\\/"))
        }
        var latin1 = String.UnicodeScalarView()
        latin1.append(contentsOf: bytes.map { UnicodeScalar($0) })
        add(String(latin1))
        return forms
    }

    /// Replaces non-overlapping occurrences of `pattern`, scanning left to right.
    private static func replacing(
        _ pattern: String.UnicodeScalarView, with replacement: String.UnicodeScalarView,
        in scalars: String.UnicodeScalarView
    ) -> String.UnicodeScalarView {
        let needle = Array(pattern)
        let haystack = Array(scalars)
        guard let first = needle.first, needle.count <= haystack.count else { return scalars }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < haystack.count {
            if haystack[index] == first, index + needle.count <= haystack.count,
                haystack[index..<(index + needle.count)].elementsEqual(needle)
            {
                result.append(contentsOf: replacement)
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return result
    }
}

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
