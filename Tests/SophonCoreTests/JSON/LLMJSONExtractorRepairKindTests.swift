import Testing

@testable import SophonCore

/// The repairs added for the tolerant parser: each kind, its value, its offsets and sentence.
@Suite struct LLMJSONExtractorRepairKindTests {
    let extractor = LLMJSONExtractor()

    @Test(arguments: [
        (
            "{“a”: ‘b’}", #"{"a":"b"}"#, [JSONRepair.Kind.convertedCurlyQuotes, .convertedCurlyQuotes],
            [1, 10]
        ),
        (#"{name: 1, $ref: "x"}"#, #"{"name":1,"$ref":"x"}"#, [.quotedKey, .quotedKey], [1, 10]),
        (#"{_id: 1, @type: 2}"#, #"{"_id":1,"@type":2}"#, [.quotedKey, .quotedKey], [1, 9]),
        (
            #"{"s": active, "t": in progress}"#, #"{"s":"active","t":"in progress"}"#,
            [.quotedBareWord, .quotedBareWord], [6, 19]
        ),
        (#"{"a": 1 "b": 2}"#, #"{"a":1,"b":2}"#, [.insertedComma], [8]),
        ("[1 2 \"x\"]", #"[1,2,"x"]"#, [.insertedComma, .insertedComma], [3, 5]),
        (#"{"a": 1,, "b": 2}"#, #"{"a":1,"b":2}"#, [.removedExtraComma], [8]),
        (#"{, "a": 1}"#, #"{"a":1}"#, [.removedExtraComma], [1]),
        ("[1,,2]", "[1,2]", [.removedExtraComma], [3]),
        (#"{"a": [1, 2,}"#, #"{"a":[1,2]}"#, [.removedTrailingComma, .closedMismatchedBracket], [11, 6]),
        (#"[{"a": 1,]"#, #"[{"a":1}]"#, [.removedTrailingComma, .closedMismatchedBracket], [8, 1]),
        (#"{"a" = 1, "b"= "x"}"#, #"{"a":1,"b":"x"}"#, [.replacedEqualsSign, .replacedEqualsSign], [5, 13]),
        (
            #"{"html": "<a href="x">y</a>", "b": 2}"#, #"{"html":"<a href=\"x\">y</a>","b":2}"#,
            [.escapedInnerQuote], [18]
        ),
        (#"{"a" 1}"#, #"{"a":1}"#, [.insertedColon], [5]),
        (#"{"a" {"b": 1}}"#, #"{"a":{"b":1}}"#, [.insertedColon], [5]),
        (#"{"a": [1, 2}"#, #"{"a":[1,2]}"#, [.closedMismatchedBracket], [6]),
        (#"[{"a": 1]"#, #"[{"a":1}]"#, [.closedMismatchedBracket], [1]),
        (#"{"a": 1]}"#, #"{"a":1}"#, [.removedStrayBracket], [7]),
        (#"{"q": "say "hi" now"}"#, #"{"q":"say \"hi\" now"}"#, [.escapedInnerQuote], [11]),
        (
            #"{'n': 'O'Brien'}"#, #"{"n":"O'Brien"}"#,
            [.convertedSingleQuotes, .convertedSingleQuotes, .escapedInnerQuote], [1, 6, 8]
        ),
        (#"{\"a\": 1}"#, #"{"a":1}"#, [.unescapedEmbeddedJSON], [0]),
        ("[1, 2, ...]", "[1,2]", [.removedEllipsis], [7]),
        ("[1, …, 3]", "[1,3]", [.removedEllipsis], [4]),
        (#"{"a": 1, ...}"#, #"{"a":1}"#, [.removedEllipsis], [9]),
        (
            "[+1, .5, 007, -.5]", #"[1,0.5,"007",-0.5]"#,
            [.normalizedNumber, .normalizedNumber, .normalizedNumber, .normalizedNumber], [1, 5, 9, 14]
        ),
        (#"{"a": , "b": 1}"#, #"{"b":1}"#, [.droppedEmptyMember], [1]),
        (#"{"a": 1, "b": }"#, #"{"a":1}"#, [.droppedEmptyMember], [9]),
        (
            #"{"w": 12px, "d": 2024-01-15}"#, #"{"w":"12px","d":"2024-01-15"}"#,
            [.quotedBareWord, .quotedBareWord], [6, 17]
        ),
        (#"{"v": undefined}"#, #"{"v":null}"#, [.convertedNullWord], [6]),
        (
            #"{"v": NULL, "w": nil}"#, #"{"v":null,"w":null}"#, [.convertedNullWord, .convertedNullWord],
            [6, 17]
        ),
        (
            #"{"m": fast // quick"#, #"{"m":"fast"}"#, [.quotedBareWord, .removedComment, .closedBracket],
            [6, 11, 0]
        ),
        ("{\"a\": 1 # c \"x\"\n}", #"{"a":1}"#, [.removedComment], [8]),
        (#"{"t": "it\'s"}"#, #"{"t":"it's"}"#, [.repairedEscape], [9]),
        (#"{"a": "x, "b": 2}"#, #"{"a":"x","b":2}"#, [.insertedClosingQuote], [8]),
        (#"{"a: 1, "b": 2}"#, #"{"a":1,"b":2}"#, [.insertedClosingQuote], [3]),
        (#"{"url: "x"}"#, #"{"url":"x"}"#, [.insertedClosingQuote], [5]),
        (#""a": 1, 'b': 2}"#, #"{"a":1,"b":2}"#, [.insertedOpeningBrace, .convertedSingleQuotes], [0, 8]),
        (#"{"http://a.b": 1}"#, #"{"http://a.b":1}"#, [], []),
        (
            #"{'p': (1, 2), 'e': ()}"#, #"{"p":[1,2],"e":[]}"#,
            [.convertedSingleQuotes, .convertedTuple, .convertedSingleQuotes, .convertedTuple],
            [1, 6, 14, 19]
        ),
        (
            #"[(1, "x)"), (2,)]"#, #"[[1,"x)"],[2]]"#,
            [.convertedTuple, .convertedTuple, .removedTrailingComma], [1, 12, 14]
        ),
        (
            #"{"n": (True, None)}"#, #"{"n":[true,null]}"#,
            [.convertedTuple, .convertedPythonLiteral, .convertedPythonLiteral], [6, 7, 13]
        ),
        ("{", "{}", [.closedBracket], [0]),
        ("  [", "[]", [.closedBracket], [2]),
        (#"{"ti"#, "{}", [.droppedIncompleteMember, .closedBracket], [1, 0]),
        ("```json\n{\n```", "{}", [.strippedFence, .closedBracket], [0, 8]),
    ])
    func repairKind(text: String, compact: String, kinds: [JSONRepair.Kind], offsets: [Int]) throws {
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [compact])
        #expect(found.first?.repairs.map(\.kind) == kinds)
        #expect(found.first?.repairs.map(\.offset) == offsets)
    }

    @Test func repairSentences() throws {
        let cases: [(String, String)] = [
            (#"{"a": [1, 2}"#, "closed the '[' left open before the '}' (offset 11) at offset 6"),
            (#"{"a": 1]}"#, "removed the ']' closing nothing at offset 7"),
            ("[007]", #"kept the number '007' with leading zeros as the string "007" at offset 1"#),
            (#"{a: 1}"#, "quoted the key 'a' at offset 1"),
            (#"{"s": on}"#, "read the unquoted word 'on' as a string at offset 6"),
        ]
        for (text, sentence) in cases {
            #expect(try extractor.extractFirst(from: text).repairs.map(\.description) == [sentence])
        }
    }

    @Test func escapedJSONOffsetsPointIntoTheOriginalText() throws {
        let text = #"Reply: "{\"a\": [1, 2,"#
        let found = try extractor.extractFirst(from: text)
        #expect(found.value.compactText == #"{"a":[1,2]}"#)
        #expect(found.range == 8..<text.utf8.count)
        #expect(
            found.repairs.map(\.kind) == [
                .skippedProse, .unescapedEmbeddedJSON, .removedTrailingComma, .closedBracket, .closedBracket,
            ])
        #expect(found.repairs.map(\.offset) == [0, 8, 21, 16, 8])
    }

    @Test func everyNewKindChangesTheValue() {
        #expect(JSONRepair.Kind.allCases.filter { !$0.changesValue } == [.strippedFence, .skippedProse])
    }

    @Test func runawayNumberIsRefused() {
        let digits = String(repeating: "0", count: 300)
        #expect(throws: LLMJSONExtractionError.runawayNumber(offset: 7, length: 302)) {
            try extractor.extract(from: #"{"pi": 3."# + digits + "}")
        }
        let options = LLMJSONExtractor.Options(maxNumberLength: 400)
        #expect(throws: Never.self) {
            try LLMJSONExtractor(options: options).extract(from: "[1." + digits + "]")
        }
    }

    @Test func runawayEscapeIsRefused() {
        let run = String(repeating: #"\\"#, count: 600)
        #expect(throws: LLMJSONExtractionError.runawayEscape(offset: 7, length: 1_200)) {
            try extractor.extract(from: #"{"s": ""# + run + #""}"#)
        }
        let looped = String(repeating: #"\n"#, count: 501)
        #expect(throws: LLMJSONExtractionError.runawayEscape(offset: 8, length: 1_002)) {
            try extractor.extract(from: #"{"s": "a"# + looped + #"b"}"#)
        }
        #expect(
            LLMJSONExtractionError.runawayNumber(offset: 7, length: 302).description
                == "a number of 302 characters at offset 7 is too long (a model looping?)")
    }

    @Test func shortEscapeRunsAndLongStringsAreFine() throws {
        let text = #"{"s": ""# + String(repeating: #"a\n"#, count: 5_000) + #""}"#
        let found = try extractor.extractFirst(from: text)
        #expect(found.value["s"]?.stringValue?.utf8.count == 10_000)
    }
}
