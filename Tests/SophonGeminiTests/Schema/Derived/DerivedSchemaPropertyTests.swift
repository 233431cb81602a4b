import Foundation
import SophonCore
import SophonGemini
import Testing

/// Property-based: for random values of types with every shape the derivation handles, the
/// JSON the type encodes validates against the schema derived from it, and decodes back to
/// the same value through the lenient decoder `generateStructured` uses.
@Suite struct DerivedSchemaPropertyTests {
    /// SplitMix64: a small seeded generator, so every run checks the same values.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    enum Status: String, Codable, CaseIterable, Equatable { case draft, review, final = "FINAL", archived }

    struct Note: Codable, Equatable {
        var text: String
        var stars: Int8?
        var tags: [String]
    }

    struct Record: Codable, Equatable {
        var id: Int
        var title: String
        var score: Double
        var ratio: Float?
        var active: Bool
        var status: Status
        var statuses: [Status]
        var created: Date
        var updated: Date?
        var notes: [Note]
        var main: Note?
        var matrix: [[Int]]
        var count: UInt16
        var maybe: [Int?]
    }

    static func text(_ random: inout SeededGenerator) -> String {
        let alphabet = Array("abcXYZ 019,.\"'\\é漢🙂-_")
        return String(
            (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    static func note(_ random: inout SeededGenerator) -> Note {
        Note(
            text: text(&random),
            stars: Bool.random(using: &random) ? Int8.random(in: .min ... .max, using: &random) : nil,
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) })
    }

    static func date(_ random: inout SeededGenerator) -> Date {
        // Whole seconds: ISO 8601 without fractions round-trips exactly.
        Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &random)))
    }

    static func record(_ random: inout SeededGenerator) -> Record {
        Record(
            id: Int.random(in: Int(Int32.min)...Int(Int32.max), using: &random),
            title: text(&random),
            score: Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 64,
            ratio: Bool.random(using: &random)
                ? Float(Int.random(in: -1000...1000, using: &random)) / 8 : nil,
            active: Bool.random(using: &random),
            status: Status.allCases.randomElement(using: &random)!,
            statuses: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Status.allCases.randomElement(using: &random)!
            },
            created: date(&random),
            updated: Bool.random(using: &random) ? date(&random) : nil,
            notes: (0..<Int.random(in: 0...3, using: &random)).map { _ in note(&random) },
            main: Bool.random(using: &random) ? note(&random) : nil,
            matrix: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    Int.random(in: -99...99, using: &random)
                }
            },
            count: UInt16.random(in: 0 ... .max, using: &random),
            maybe: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Bool.random(using: &random) ? Int.random(in: 0...9, using: &random) : nil
            })
    }

    @Test(arguments: [UInt64(1), 29, 2026])
    func encodedValuesValidateAgainstTheDerivedSchema(seed: UInt64) throws {
        let schema = try GeminiSchema(for: Record.self)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var random = SeededGenerator(state: seed)
        for _ in 0..<300 {
            let record = Self.record(&random)
            let json = try JSONValue(parsing: String(decoding: try encoder.encode(record), as: UTF8.self))
            let violations = schema.validate(json)
            #expect(violations.isEmpty, "\(violations) for \(json.compactText)")
            let decoded = try LenientJSONDecoder().decode(Record.self, from: json).value
            #expect(decoded == record)
        }
    }
}
