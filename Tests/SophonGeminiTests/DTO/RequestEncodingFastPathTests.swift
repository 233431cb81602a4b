import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// The request encoder's fast paths (byte writer, schema shortcut, primitive keyed values)
/// produce exactly what the general paths produce.
@Suite struct RequestEncodingFastPathTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-12.5e3"#, #""""#, #"[]"#, #"{}"#,
        #"{"a":[1,{"b":null}],"c":"d"}"#,
        #"["quote \" backslash \\ slash / newline \n return \r tab \t"]"#,
        #"["backspace \b formfeed \f unit \u001f start \u0001 delete \u007f"]"#,
        #"{"é":"中文 emoji 👩‍👩‍👧 e\u0301 flag 🇫🇷","z":{"y":[[],[{}]]}}"#,
    ])
    func bytesMatchCompactText(text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(JSONCompactBytes.data(value) == Data(value.compactText.utf8))
    }

    @Test func controlCharactersUseLowercaseHex() {
        let value = JSONValue.string("\u{1B}\u{1F}\u{00}")
        #expect(String(decoding: JSONCompactBytes.data(value), as: UTF8.self) == #""\u001b\u001f\u0000""#)
    }

    static let schemas: [GeminiSchema] = [
        .object(
            properties: [
                "title": .string(description: "The \"title\""),
                "year": .integer(minimum: 1900, maximum: 2100),
                "rating": .number(minimum: 0, maximum: 9.5), "tags": .array(items: .string(), maxItems: 3),
                "status": .string(enum: ["draft", "final"], nullable: true),
                "author": .object(properties: ["name": .string()], required: ["name"]),
            ], required: ["title", "year"]),
        .array(items: .boolean(), minItems: 1),
        .number(minimum: -0.25, maximum: 1e21),
    ]

    @Test(arguments: schemas)
    func schemaShortcutMatchesCodingPath(schema: GeminiSchema) throws {
        let fast = try OrderedJSONEncoder().encode(schema)
        let general = try OrderedJSONEncoder().encode(schema.jsonValue)
        #expect(fast == general)
        #expect(fast.compactText == general.compactText)
    }

    @Test func schemaParsedWithExponentsEncodesAsTheCodingPathDoes() throws {
        let json = try JSONValue(parsing: #"{"type":"NUMBER","minimum":1e2,"maximum":2.50}"#)
        let schema = try GeminiSchema(jsonValue: json)
        let fast = try OrderedJSONEncoder().encode(schema)
        let general = try OrderedJSONEncoder().encode(schema.jsonValue)
        #expect(fast.compactText == general.compactText)
    }

    struct Leaves: Encodable {
        var name: String
        var flag: Bool
        var count: Int
        var note: String?
        var missing: Int?
        var list: [String]
    }

    @Test func primitiveLeavesEncodeInOrder() throws {
        let value = Leaves(name: "a\"b", flag: true, count: -3, note: "n", missing: nil, list: ["x", "y"])
        let data = try OrderedJSONEncoder().encodeData(value)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"name":"a\"b","flag":true,"count":-3,"note":"n","list":["x","y"]}"#)
    }

    struct Overwrite: Encodable {
        enum Key: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("first", forKey: .a)
            try container.encode(1, forKey: .b)
            try container.encode("second", forKey: .a)
        }
    }

    @Test func aKeyWrittenTwiceKeepsItsFirstPlaceAndLastValue() throws {
        let data = try OrderedJSONEncoder().encodeData(Overwrite())
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":"second","b":1}"#)
    }

    @Test func structuredRequestBodyIsByteStable() throws {
        let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { "k" }))
        let request = client.buildRequest(
            parts: [], promptText: "Say \"hi\"\n", responseSchema: Self.schemas[1],
            systemInstruction: "Be brief.")
        let data = try OrderedJSONEncoder().encodeData(request)
        #expect(data == Data(try OrderedJSONEncoder().encode(request).compactText.utf8))
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"contents":[{"role":"user","parts":[{"text":"Say \"hi\"\n"}]}],"systemInstruction":{"parts":[{"text":"Be brief."}]},"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"ARRAY","items":{"type":"BOOLEAN"},"minItems":1}}}"#
        )
    }
}

/// The API key trim that replaced `trimmingCharacters(in: .whitespacesAndNewlines)`.
@Suite struct APIKeyTrimTests {
    @Test(arguments: [
        ("AIzaKey", "AIzaKey"), ("  AIza Key \n", "AIza Key"), ("\r\n\tkey\r\n", "key"),
        ("\u{00A0}\u{2028}key\u{3000}", "key"), ("   ", ""), ("", ""), ("k", "k"),
    ])
    func trimsLikeFoundation(input: String, expected: String) {
        #expect(GeminiAPIClient.trimmed(input) == expected)
        #expect(GeminiAPIClient.trimmed(input) == input.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aBlankKeyIsMissing() {
        let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { " \n " }))
        #expect(!client.hasAPIKey)
        #expect(GeminiAPIClient(configuration: .init(apiKeyProvider: { " k " })).maskedAPIKey != nil)
    }
}
