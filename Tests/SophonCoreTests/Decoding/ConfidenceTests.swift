import Foundation
import Testing

@testable import SophonCore

private struct Verdict: Decodable, Equatable {
    let label: String
    let confidence: Confidence
}

private struct MaybeVerdict: Decodable, Equatable {
    let confidence: Confidence?
}

@Suite struct ConfidenceTests {
    static let readings: [(String, Double, [String])] = [
        ("85", 0.85, ["$.confidence: 85 read as 0.85 normalizedConfidence"]),
        (#""85%""#, 0.85, [#"$.confidence: "85%" read as 0.85 normalizedConfidence"#]),
        ("1.5", 0.015, ["$.confidence: 1.5 read as 0.015 normalizedConfidence"]),
        ("-3", 0, ["$.confidence: -3 read as 0 normalizedConfidence"]),
        ("250", 1, ["$.confidence: 250 read as 1 normalizedConfidence"]),
        ("0.4", 0.4, []),
        ("1", 1, []),
        (#""0.4""#, 0.4, [#"$.confidence: "0.4" read as 0.4 stringToNumber"#]),
        (#""0.5%""#, 0.005, [#"$.confidence: "0.5%" read as 0.005 normalizedConfidence"#]),
    ]

    @Test(arguments: readings)
    func lenientDecoderReadsAConfidence(written: String, expected: Double, coercions: [String]) throws {
        let value = try JSONValue(parsing: #"{"label": "spam", "confidence": \#(written)}"#)
        let decoded = try LenientJSONDecoder().decode(Verdict.self, from: value)
        #expect(decoded.value.confidence.value == expected)
        #expect(decoded.coercions.map { "\($0) \($0.kind.rawValue)" } == coercions)
        // The same rule as the single-value reader.
        #expect(LLMDecoding.confidence(value["confidence"]) == expected)
    }

    @Test func optionalConfidenceReadsNullWordsAndRefusesWords() throws {
        let missing = try LenientJSONDecoder().decode(
            MaybeVerdict.self, from: JSONValue(parsing: #"{"confidence": "N/A"}"#))
        #expect(missing.value == MaybeVerdict(confidence: nil))
        #expect(missing.coercions.map(\.description) == [#"$.confidence: "N/A" read as null"#])

        let word = try JSONValue(parsing: #"{"label": "x", "confidence": "high"}"#)
        #expect(throws: DecodingError.self) { try LenientJSONDecoder().decode(Verdict.self, from: word) }
        do {
            _ = try LenientJSONDecoder().decode(Verdict.self, from: word)
        } catch let error as DecodingError {
            #expect(
                LLMDecoding.summary(of: error) == #"$.confidence: expected Confidence, found string "high""#)
        }
    }

    @Test func otherDecodersAndEncodingUseTheSameRule() throws {
        let data = Data(#"[{"label": "a", "confidence": 85}, {"label": "b", "confidence": "40%"}]"#.utf8)
        let verdicts = try JSONDecoder().decode([Verdict].self, from: data)
        #expect(verdicts.map(\.confidence.value) == [0.85, 0.4])
        let encoded = try JSONEncoder().encode(verdicts[0].confidence)
        #expect(String(decoding: encoded, as: UTF8.self) == "0.85")
    }

    @Test func initializerAppliesTheRule() {
        #expect(Confidence(85)?.value == 0.85)
        #expect(Confidence(0.4)?.value == 0.4)
        #expect(Confidence(-3)?.value == 0)
        #expect(Confidence(.infinity) == nil)
        #expect(Confidence(0.2)! < Confidence(30)!)
    }
}
