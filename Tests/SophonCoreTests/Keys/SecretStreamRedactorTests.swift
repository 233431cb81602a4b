import Testing

@testable import SophonCore

/// A secret split across the pieces of a streamed text is masked whole (the newcomer's trial:
/// a key echoed in a streamed answer was printed in full).
@Suite struct SecretStreamRedactorTests {
    static let key = "AIzaSyDUMMYKEYzz9876"

    /// The text cut into two pieces at every offset, and into one-character pieces.
    @Test func aSecretSplitAnywhereIsMaskedWhole() {
        let text = "key \(Self.key) end, and \(Self.key)"
        let expected = SecretMask.redact(text, secrets: [Self.key])
        #expect(expected == "key ••••9876 end, and ••••9876")
        for cut in 0...text.count {
            var redactor = SecretStreamRedactor(secrets: [Self.key])
            let shown =
                redactor.feed(String(text.prefix(cut))) + redactor.feed(String(text.dropFirst(cut)))
                + redactor.finish()
            #expect(shown == expected, "cut at \(cut)")
        }
        var redactor = SecretStreamRedactor(secrets: [Self.key])
        #expect(text.map { redactor.feed(String($0)) }.joined() + redactor.finish() == expected)
    }

    /// A start of the key is held back only while it may be the key: the text ends with it
    /// unmasked when the key never comes.
    @Test func aTailIsHeldOnlyWhileItMayBeTheKey() {
        var redactor = SecretStreamRedactor(secrets: [Self.key])
        #expect(redactor.feed("see AIza") == "see ")
        #expect(redactor.feed("Sy and more") == "AIzaSy and more")
        #expect(redactor.feed("AIzaSyDUMMY") == "")
        #expect(redactor.finish() == "AIzaSyDUMMY")
    }
}
