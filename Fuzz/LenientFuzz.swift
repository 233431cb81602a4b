import Foundation
import SophonCore

/// Fuzz target `lenient`: text through the extractor, then `LenientJSONDecoder` into one of
/// several types chosen by the first byte, plus the `LLMDecoding` helpers on every value.
///
/// Invariants: decoding returns a value or a `DecodingError` (never another error, never a
/// trap on an out-of-range or non-finite number); every coercion and error summary is one
/// line; a confidence is in 0...1.
enum LenientFuzz {
    enum Status: String, Decodable, CaseIterable {
        case draft, final, done
    }

    struct Nested: Decodable {
        var name: String
        var count: Int?
        var ratio: Double?
        var children: [Nested]?
    }

    struct Record: Decodable {
        var title: String
        var year: Int?
        var small: Int8?
        var unsigned: UInt16?
        var big: Int64?
        var price: Decimal?
        var score: Double?
        var float: Float?
        var flag: Bool?
        var tags: [String]?
        var numbers: [Int]?
        var status: Status?
        var link: URL?
        var nested: Nested?
        var map: [String: Int]?
    }

    struct Strict: Decodable {
        var id: Int
        var name: String
        var flags: [Bool]
        var status: Status
        var level: UInt8
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let selector = input.byte()
        guard let values = try? LLMJSONExtractor().extract(from: input.text) else { return }
        for item in values {
            helpers(item.value)
            switch selector % 8 {
            case 0: decode(Record.self, item.value)
            case 1: decode([Record].self, item.value)
            case 2: decode(Strict.self, item.value)
            case 3: decode(Nested.self, item.value)
            case 4: decode([String: Double].self, item.value)
            case 5: decode([Int8?].self, item.value)
            case 6: decode([Status].self, item.value)
            default: decode(Record?.self, item.value)
            }
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) {
        do {
            let result = try LenientJSONDecoder().decode(type, from: value)
            for coercion in result.coercions {
                let line = coercion.description
                fuzzRequire(!line.contains("\n"), "coercion on two lines: \(line)")
            }
        } catch let error as DecodingError {
            let line = LLMDecoding.summary(of: error)
            fuzzRequire(!line.contains("\n"), "summary on two lines: \(line)")
        } catch {
            fuzzRequire(false, "not a DecodingError: \(error)")
        }
    }

    /// The `LLMDecoding` helpers on the value and on each element or member.
    static func helpers(_ value: JSONValue) {
        var values = [value]
        switch value {
        case .array(let elements): values += elements.prefix(64)
        case .object(let members): values += members.prefix(64).map(\.value)
        default: break
        }
        for value in values {
            _ = LLMDecoding.string(value)
            _ = LLMDecoding.stringArray(value)
            _ = LLMDecoding.int(value)
            _ = LLMDecoding.double(value)
            _ = LLMDecoding.bool(value)
            if let confidence = LLMDecoding.confidence(value) {
                fuzzRequire((0...1).contains(confidence), "confidence \(confidence)")
            }
        }
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LenientFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
