import Testing

@testable import SophonCore

/// A JSON number from its literal text (test inputs are always valid syntax).
private func num(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

private func str(_ text: String) -> JSONValue { .string(text) }

@Suite struct LLMDecodingTests {
    static let nullWords = [
        "N/A", "n/a", "none", "None", "null", "NULL", "", "   ", "-", "nil", "NA", "undefined",
        " N/A ",
    ]

    @Test(arguments: nullWords)
    func nullWordsAreNilForEveryReader(word: String) {
        let value = JSONValue.string(word)
        #expect(LLMDecoding.isNullWord(word))
        #expect(LLMDecoding.string(value) == nil)
        #expect(LLMDecoding.stringArray(value) == nil)
        #expect(LLMDecoding.int(value) == nil)
        #expect(LLMDecoding.double(value) == nil)
        #expect(LLMDecoding.bool(value) == nil)
        #expect(LLMDecoding.confidence(value) == nil)
    }

    @Test(arguments: ["0", "false", "unknown", "nothing", "n/a/b", "--"])
    func otherWordsAreNotNullWords(word: String) {
        #expect(!LLMDecoding.isNullWord(word))
        #expect(LLMDecoding.string(.string(word)) == word)
    }

    @Test func missingAndNullAreNilForEveryReader() {
        for value in [nil, JSONValue.null] {
            #expect(LLMDecoding.string(value) == nil)
            #expect(LLMDecoding.stringArray(value) == nil)
            #expect(LLMDecoding.int(value) == nil)
            #expect(LLMDecoding.double(value) == nil)
            #expect(LLMDecoding.bool(value) == nil)
            #expect(LLMDecoding.confidence(value) == nil)
        }
    }

    @Test(
        arguments: [
            (str("7"), 7), (str("7.0"), 7), (num("7.9"), 7), (num("-7.9"), -7), (num("7"), 7),
            (str("7.9"), 7), (num("1e2"), 100), (str(" 42 "), 42), (str("+5"), 5), (str("1,024"), 1024),
            (str("$12"), 12), (str("85%"), 85), (str("-$1,299.99"), -1299), (num("0.5"), 0),
            (num("9223372036854775807"), Int.max), (num("-9223372036854775808"), Int.min),
        ] as [(JSONValue, Int)])
    func intReadsNumbers(value: JSONValue, expected: Int) {
        #expect(LLMDecoding.int(value) == expected)
    }

    @Test(
        arguments: [
            str("1e400"), num("1e400"), num("-1e400"), str("NaN"), str("nan"), str("inf"), str("abc"),
            num("9223372036854775808"), num("-9223372036854775809"), num("9.3e18"), str("0x10"),
            str("1,5"), str("7 apples"), .bool(true), .array([num("1")]), .object([]),
        ] as [JSONValue])
    func intIsNilWithoutTrapping(value: JSONValue) {
        #expect(LLMDecoding.int(value) == nil)
    }

    @Test(
        arguments: [
            (str("85%"), 85), (str("$1,299.99"), 1299.99), (str("1,024"), 1024), (str("7"), 7),
            (num("2.5e-3"), 0.0025), (str("€ 12.50"), 12.5), (str("12.50 €"), 12.5), (str("£3"), 3),
            (str("¥1,000"), 1000), (str("-$5"), -5), (str("$-5"), -5), (str(".5"), 0.5), (str("5."), 5),
            (str("+3.5"), 3.5), (str("1,234,567.5"), 1_234_567.5), (num("-0.25"), -0.25),
            (str("1E3"), 1000),
        ] as [(JSONValue, Double)])
    func doubleReadsNumbers(value: JSONValue, expected: Double) {
        #expect(LLMDecoding.double(value) == expected)
    }

    @Test(
        arguments: [
            str("1e400"), num("1e400"), str("NaN"), str("Infinity"), str("inf"), str("abc"),
            str("1,5"), str("1,2345"), str("12,34,567"), str("0x10"), str("1.2.3"), str("$"), str("%"),
            str("5%%"), str("--5"), str("1e"), .bool(false), .array([]), .object([]),
        ] as [JSONValue])
    func doubleIsNilForNonNumbers(value: JSONValue) {
        #expect(LLMDecoding.double(value) == nil)
    }

    @Test(
        arguments: [
            (JSONValue.bool(true), true), (.bool(false), false), (str("yes"), true), (str("No"), false),
            (str("TRUE"), true), (str("False"), false), (str("y"), true), (str("N"), false),
            (str("1"), true), (str("0"), false), (num("1"), true), (num("0"), false),
            (num("1.0"), true), (str(" yes "), true),
        ] as [(JSONValue, Bool)])
    func boolReadsWords(value: JSONValue, expected: Bool) {
        #expect(LLMDecoding.bool(value) == expected)
    }

    @Test(
        arguments: [
            num("2"), num("-1"), num("0.5"), str("maybe"), str("2"), str("yess"), .array([]),
            .object([]),
        ] as [JSONValue])
    func boolIsNilForOtherValues(value: JSONValue) {
        #expect(LLMDecoding.bool(value) == nil)
    }

    @Test(
        arguments: [
            (str("85%"), 0.85), (num("85"), 0.85), (num("1.5"), 0.015), (num("0.7"), 0.7),
            (num("-3"), 0), (num("250"), 1), (num("1"), 1), (num("0"), 0), (str("0.5%"), 0.005),
            (str("150%"), 1), (str("0.9"), 0.9), (str("-5%"), 0),
        ] as [(JSONValue, Double)])
    func confidenceIsAFraction(value: JSONValue, expected: Double) {
        #expect(LLMDecoding.confidence(value) == expected)
    }

    @Test(arguments: [str("high"), num("1e400"), .bool(true), .array([num("0.5")])] as [JSONValue])
    func confidenceIsNilForNonNumbers(value: JSONValue) {
        #expect(LLMDecoding.confidence(value) == nil)
    }

    @Test(
        arguments: [
            (str("hi"), "hi"), (str(" hi "), " hi "), (num("7.50"), "7.50"), (num("1e400"), "1e400"),
            (.bool(true), "true"), (.bool(false), "false"),
        ] as [(JSONValue, String)])
    func stringReadsScalars(value: JSONValue, expected: String) {
        #expect(LLMDecoding.string(value) == expected)
    }

    @Test func stringIsNilForContainers() {
        #expect(LLMDecoding.string(.array([str("a")])) == nil)
        #expect(LLMDecoding.string(.object([JSONMember("a", str("b"))])) == nil)
    }

    @Test(
        arguments: [
            (
                .array([str("a"), num("1"), .bool(true), str("N/A"), .null, str(" b ")]),
                ["a", "1", "true", " b "]
            ),
            (str("a, b"), ["a", "b"]), (str("a,,b, "), ["a", "b"]), (str("solo"), ["solo"]),
            (str(" a , none, b "), ["a", "b"]), (str(", ,"), []), (num("5"), ["5"]),
            (.bool(false), ["false"]), (.array([]), []),
        ] as [(JSONValue, [String])])
    func stringArrayReadsListsAndCommaSeparatedText(value: JSONValue, expected: [String]) {
        #expect(LLMDecoding.stringArray(value) == expected)
    }

    @Test(
        arguments: [
            .array([str("a"), .array([str("b")])]), .array([.object([])]), .object([]),
        ] as [JSONValue])
    func stringArrayIsNilForNestedContainers(value: JSONValue) {
        #expect(LLMDecoding.stringArray(value) == nil)
    }
}
