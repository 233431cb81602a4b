import Testing

@testable import SophonCore

/// Repairs: truncation at many cut points, the cheap LLM breakages, and the recorded repairs.
@Suite struct LLMJSONExtractorRepairTests {
    let extractor = LLMJSONExtractor()

    @Test(arguments: [
        (#"{"a": [1, 2,"#, #"{"a":[1,2]}"#),
        (#"{"name": "Ad"#, #"{"name":"Ad"}"#),
        (#"{"a": 1,"#, #"{"a":1}"#),
        (#"{"a": 1, "#, #"{"a":1}"#),
        (#"{"a": [[1, 2], [3"#, #"{"a":[[1,2],[3]]}"#),
        (#"{"a": 1, "b":"#, #"{"a":1}"#),
        (#"{"a": 1, "b""#, #"{"a":1}"#),
        (#"{"a": 1, "b"#, #"{"a":1}"#),
        (#"{"a": 1, ""#, #"{"a":1}"#),
        ("[tru", "[true]"),
        ("[fals", "[false]"),
        (#"{"x": nul"#, #"{"x":null}"#),
        ("[T", "[true]"),
        ("[1.", "[1]"),
        ("[1, -", "[1]"),
        ("[1.5e", "[1.5]"),
        ("[2e+", "[2]"),
        ("[12", "[12]"),
        (#"{"a": "x\u00"#, #"{"a":"x"}"#),
        (#"{"a": "x\"#, #"{"a":"x"}"#),
        (#"{"a": "\ud83d"#, #"{"a":""}"#),
        (#"{"a": "\ud83d\ud"#, #"{"a":""}"#),
        (#"[{"a": 1}, {"b": [true, {"c": "d"#, #"[{"a":1},{"b":[true,{"c":"d"}]}]"#),
        ("Sure!\n```json\n{\"a\": [1, 2,", #"{"a":[1,2]}"#),
        ("{\"a\": [1, 2, // more to come", #"{"a":[1,2]}"#),
    ])
    func truncationIsRepaired(text: String, compact: String) throws {
        #expect(try extractor.extractFirst(from: text).value.compactText == compact)
    }

    @Test(arguments: [
        (
            #"{"a": [1, 2,"#, [JSONRepair.Kind.removedTrailingComma, .closedBracket, .closedBracket],
            [11, 6, 0]
        ),
        (#"{"name": "Ad"#, [.closedString, .closedBracket], [9, 0]),
        (#"{"a": 1, "b":"#, [.droppedIncompleteMember, .closedBracket], [9, 0]),
        (#"{"a": 1, "b"#, [.droppedIncompleteMember, .closedBracket], [9, 0]),
        ("[tru", [.completedLiteral, .closedBracket], [1, 0]),
        ("[1, 2.", [.completedNumber, .closedBracket], [4, 0]),
        ("[1, -", [.droppedIncompleteValue, .removedTrailingComma, .closedBracket], [4, 2, 0]),
        (#"["a\"#, [.droppedIncompleteEscape, .closedString, .closedBracket], [3, 1, 0]),
        (
            "Sure!\n```json\n{\"a\": [1, 2,",
            [.strippedFence, .removedTrailingComma, .closedBracket, .closedBracket], [6, 25, 20, 14]
        ),
    ])
    func repairsAreRecordedWithOffsets(text: String, kinds: [JSONRepair.Kind], offsets: [Int]) throws {
        let found = try extractor.extractFirst(from: text)
        #expect(found.repairs.map(\.kind) == kinds)
        #expect(found.repairs.map(\.offset) == offsets)
        #expect(found.range.upperBound == text.utf8.count)
    }

    @Test func repairDescriptionsNameTheOffset() throws {
        let found = try extractor.extractFirst(from: #"{"name": "Ad"#)
        #expect(
            found.repairs.map(\.description) == [
                "closed the unterminated string that starts at offset 9",
                "closed the '{' left open at offset 0",
            ])
        let cut = try extractor.extractFirst(from: "[1.")
        #expect(cut.repairs.first?.description == "cut the incomplete number '1.' back to '1' at offset 1")
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, #"{"a":1}"#, [JSONRepair.Kind.removedTrailingComma]),
        ("[1, 2, ]", "[1,2]", [.removedTrailingComma]),
        (
            #"{"a": True, "b": None, "c": False}"#, #"{"a":true,"b":null,"c":false}"#,
            [.convertedPythonLiteral, .convertedPythonLiteral, .convertedPythonLiteral]
        ),
        (
            #"{'a': 'it\'s "quoted"'}"#, #"{"a":"it's \"quoted\""}"#,
            [.convertedSingleQuotes, .convertedSingleQuotes]
        ),
        ("{\"a\": 1 // note\n, /* c */ \"b\": 2}", #"{"a":1,"b":2}"#, [.removedComment, .removedComment]),
        (
            "[NaN, Infinity, -Infinity]", "[null,null,null]",
            [.replacedNonFiniteNumber, .replacedNonFiniteNumber, .replacedNonFiniteNumber]
        ),
        (#"{"re": "\d+"}"#, #"{"re":"\\d+"}"#, [.repairedEscape]),
        ("{\"s\": \"line1\nline2\"}", #"{"s":"line1\nline2"}"#, [.escapedControlCharacter]),
        (#"{"lone": "\ud83d x"}"#, "{\"lone\":\"\u{FFFD} x\"}", [.repairedEscape]),
        (#"{"e": "\u00e9\ud83d\ude00\/"}"#, #"{"e":"é😀/"}"#, []),
    ])
    func commonBreakagesAreRepaired(text: String, compact: String, kinds: [JSONRepair.Kind]) throws {
        let found = try extractor.extractFirst(from: text)
        #expect(found.value.compactText == compact)
        #expect(found.repairs.map(\.kind) == kinds)
    }

    @Test func repairKindRawValuesAreLowerCamelCase() {
        #expect(JSONRepair.Kind.droppedIncompleteMember.rawValue == "droppedIncompleteMember")
        #expect(JSONRepair.Kind.allCases.allSatisfy { $0.rawValue.first?.isLowercase == true })
    }
}
