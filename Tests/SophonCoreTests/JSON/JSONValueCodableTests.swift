import Foundation
import SophonCore
import Testing

/// `JSONValue` through Foundation's `JSONDecoder` and `JSONEncoder`.
@Suite struct JSONValueCodableTests {
    struct Envelope: Codable, Equatable {
        var name: String
        var payload: JSONValue?
    }

    @Test func decodingSortsObjectKeysAndKeepsEveryKind() throws {
        let text = #"{"payload": {"b": [true, null, "x", 2.5, 7, -3], "a": {"z": {}, "y": []}}, "name": "n"}"#
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
        #expect(envelope.name == "n")
        #expect(envelope.payload?.compactText == #"{"a":{"y":[],"z":{}},"b":[true,null,"x",2.5,7,-3]}"#)
    }

    @Test func aNullMemberOfAnOptionalIsNilAndATopLevelNullIsNull() throws {
        let envelope = try JSONDecoder().decode(
            Envelope.self, from: Data(#"{"name": "n", "payload": null}"#.utf8))
        #expect(envelope.payload == nil)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("null".utf8)) == .null)
    }

    @Test(arguments: [
        ("12345678901234567890", "1.2345678901234567e19"),
        ("9223372036854775807", "9223372036854775807"),
        ("1e3", "1000"),
        ("0.1", "0.1"),
    ])
    func numbersBeyondIntGoThroughDouble(text: String, expected: String) throws {
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)).compactText == expected)
    }

    @Test func encodingWritesTheStructure() throws {
        let value = JSONValue.object([
            JSONMember("b", .array([.integer(1), .number(JSONNumber(text: "2.50")!), .null, .bool(false)])),
            JSONMember("a", .string("x\"y")),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":"x\"y","b":[1,2.5,null,false]}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)).compactText == text)
    }
}
