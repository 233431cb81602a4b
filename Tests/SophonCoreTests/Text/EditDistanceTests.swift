import SophonCore
import Testing

/// Levenshtein distance and "did you mean" candidates.
@Suite struct EditDistanceTests {
    @Test(arguments: [
        ("kitten", "sitting", false, 3),
        ("", "abc", false, 3),
        ("abc", "", false, 3),
        ("flaw", "lawn", false, 2),
        ("ABC", "abc", false, 3),
        ("ABC", "abc", true, 0),
        ("Gemini-2.5-Flsh", "gemini-2.5-flash", true, 1),
        ("café", "cafe", false, 1),
    ])
    func distance(a: String, b: String, ignoringCase: Bool, expected: Int) {
        #expect(EditDistance.between(a, b, ignoringCase: ignoringCase) == expected)
        #expect(EditDistance.between(b, a, ignoringCase: ignoringCase) == expected)
    }

    @Test func closestFirstTiesInCandidateOrder() {
        let names = ["strong", "string", "integer", "sting", "str"]
        #expect(
            EditDistance.closest(to: "strin", among: names, limit: 2) == ["string", "strong", "sting", "str"])
        #expect(EditDistance.closest(to: "strin", among: names, limit: 0) == [])
        #expect(EditDistance.closest(to: "STRING", among: names, limit: 1) == [])
        #expect(
            EditDistance.closest(to: "STRING", among: names, limit: 1, ignoringCase: true) == [
                "string", "strong", "sting",
            ])
    }
}

/// Swapping two neighbouring letters is one edit (docs/commands.md, "Errors and locations").
@Suite struct EditDistanceTranspositionTests {
    @Test(arguments: [
        ("ehco", "echo", 1), ("flsh", "flash", 1), ("ab", "ba", 1), ("abc", "ca", 3), ("modle", "model", 1),
    ])
    func aSwapIsOneEdit(a: String, b: String, expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
        #expect(EditDistance.between(b, a) == expected)
    }
}
