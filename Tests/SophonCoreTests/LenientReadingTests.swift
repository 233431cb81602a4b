import Testing

@testable import SophonCore

/// The lenient-reading table (``LenientReading``) shared by `LLMDecoding`, the lenient decoder
/// and schema coercion.
@Suite struct LenientReadingTests {
    @Test(arguments: [
        "", "null", "NULL", " none ", "None", "N/A", "n/a", "na", "NA", "nil", "-", "undefined", "\tnull\n",
    ])
    func nullWords(word: String) {
        #expect(LenientReading.isNullWord(word))
        #expect(LLMDecoding.isNullWord(word))
    }

    @Test(arguments: ["0", "false", "unknown", "n", "nan", "--", "null!"])
    func notNullWords(word: String) {
        #expect(!LenientReading.isNullWord(word))
    }

    @Test func nullWordsAreOneTable() {
        #expect(LLMDecoding.nullWords == LenientReading.nullWords)
        #expect(LenientReading.nullWords == ["", "null", "nil", "none", "n/a", "na", "-", "undefined"])
    }

    @Test(arguments: [
        ("true", true), ("TRUE", true), ("yes", true), ("Yes", true), (" y ", true), ("1", true),
        ("false", false), ("No", false), ("n", false), ("0", false), ("False\n", false),
    ])
    func booleanWords(word: String, expected: Bool) {
        #expect(LenientReading.bool(fromWord: word) == expected)
        #expect(LLMDecoding.bool(.string(word)) == expected)
    }

    @Test(arguments: ["maybe", "", "null", "2", "on", "off", "t", "f"])
    func notBooleanWords(word: String) {
        #expect(LenientReading.bool(fromWord: word) == nil)
    }

    @Test func booleanNumbers() {
        #expect(LenientReading.bool(fromNumber: JSONNumber(text: "1")!) == true)
        #expect(LenientReading.bool(fromNumber: JSONNumber(text: "1.0")!) == true)
        #expect(LenientReading.bool(fromNumber: JSONNumber(text: "0e5")!) == false)
        #expect(LenientReading.bool(fromNumber: JSONNumber(text: "2")!) == nil)
    }

    @Test(arguments: [
        ("7", "7"), ("7.0", "7.0"), (" -3 ", "-3"), ("+4", "4"), (".5", "0.5"), ("$1,299.99", "1299.99"),
        ("1,024", "1024"), ("85%", "85"), ("€12", "12"), ("1e3", "1e3"), ("007", "7"), ("-007.5", "-7.5"),
        ("0", "0"), ("0.25", "0.25"), ("12345678901234567890123", "12345678901234567890123"),
        ("1,234,567,890,123,456,789", "1234567890123456789"), ("1e999", "1e999"),
    ])
    func numberForms(text: String, expected: String) {
        #expect(LenientReading.number(text)?.text == expected)
    }

    @Test(arguments: ["abc", "NaN", "0x10", "1,5", "1,2345", "", "N/A", "-", "1.2.3", "%"])
    func notNumbers(text: String) {
        #expect(LenientReading.number(text) == nil)
    }

    @Test func listItems() {
        #expect(LenientReading.listItems("a, b") == ["a", "b"])
        #expect(LenientReading.listItems(" a ,, N/A, b\n") == ["a", "b"])
        #expect(LenientReading.listItems("") == [])
    }
}
