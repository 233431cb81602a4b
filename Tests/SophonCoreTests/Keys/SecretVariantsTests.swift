import Foundation
import SophonCore
import Testing

/// A key echoed back re-encoded is masked too; keys outside printable ASCII are found
/// (docs/commands.md, "Files and secrets").
@Suite struct SecretVariantsTests {
    static let key = "AIzaSyTestKey0123456789\u{201D}"

    @Test(arguments: [
        "AIzaSyTestKey0123456789%E2%80%9D",
        "AIzaSyTestKey0123456789%e2%80%9d",
        "AIzaSyTestKey0123456789\\u201D",
        "AIzaSyTestKey0123456789\\u201d",
        "AIzaSyTestKey0123456789\u{E2}\u{80}\u{9D}",
        "AIzaSyTestKey0123456789\u{201D}",
    ])
    func everyFormIsMaskedAsTheKey(echoed: String) {
        #expect(
            SecretMask.redact("API key not valid: \(echoed).", secrets: [Self.key])
                == "API key not valid: ••••789\u{201D}.")
    }

    @Test(arguments: [#"key\"with/odd+chars"#, #"key"with\/odd+chars"#, "key%22with%2Fodd%2Bchars"])
    func anASCIIKeyWithPunctuationIsMaskedInItsEscapedForms(echoed: String) {
        #expect(SecretMask.redact("[\(echoed)]", secrets: [#"key"with/odd+chars"#]) == "[••••hars]")
    }

    @Test func anASCIIKeyHasOneForm() {
        #expect(SecretMask.variants(of: "AIza-_09azAZ") == ["AIza-_09azAZ"])
    }

    @Test(
        arguments: [
            ("test-key", nil),
            ("test-key\u{201D}", 9),
            (" test-key", 1),
            ("test key", 5),
            ("test-key\t", 9),
            ("clé", 3),
        ] as [(String, Int?)])
    func theFirstCharacterOutsidePrintableASCIIIsFound(key: String, position: Int?) {
        #expect(APIKeyCharacters.firstBadCharacter(in: key)?.position == position)
    }

    @Test func theMessageNamesThePositionAndTheCharacterNeverTheKey() throws {
        let bad = try #require(APIKeyCharacters.firstBadCharacter(in: "secret-key\u{201D}"))
        let message = bad.message(subject: "the key")
        #expect(
            message
                == "the key has a character that is not printable ASCII at position 11 (U+201D); it is not used (check for a copied quote or blank)"
        )
        #expect(!message.contains("secret"))
    }
}
