import Testing

@testable import SophonCore

/// Number comparison and value equality (``JSONNumber/compare(_:)``,
/// ``JSONValue/isEqualAsValue(to:)``), shared by `expect` and tape replay.
@Suite struct JSONValueEqualityTests {
    private func value(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    @Test(arguments: [
        ("10", "10.0", 0), ("1e3", "1000", 0), ("1E+3", "1000.000", 0), ("-0", "0", 0), ("0.1", "1e-1", 0),
        ("1e400", "10e399", 0), ("-1", "1", -1), ("100", "99.999", 1), ("1e-400", "0", 1),
        ("12345678901234567890", "12345678901234567891", -1),
        // Beyond Foundation.Decimal's 38 digits: still exact.
        ("123456789012345678901234567890123456789012", "123456789012345678901234567890123456789013", -1),
        ("123456789012345678901234567890123456789012", "1.23456789012345678901234567890123456789012e41", 0),
    ])
    func numbersCompareExactly(left: String, right: String, expected: Int) throws {
        let a = try #require(JSONNumber(text: left))
        let b = try #require(JSONNumber(text: right))
        #expect(a.compare(b) == expected)
        #expect(b.compare(a) == -expected)
        #expect(a.isNumericallyEqual(to: b) == (expected == 0))
    }

    @Test(arguments: [
        ("1", "1.0", true),
        (#"{"a":1,"b":[1,2.0]}"#, #"{"b":[1.0,2],"a":1e0}"#, true),
        (#"{"a":1,"a":2}"#, #"{"a":2}"#, true),
        (#"{"a":1}"#, #"{"a":1,"b":null}"#, false),
        ("[1,2]", "[2,1]", false),
        (#""1""#, "1", false),
        ("null", "null", true),
        ("true", "1", false),
        (#"{"a":"x"}"#, #"{"a":"X"}"#, false),
    ])
    func valuesCompareAsValues(left: String, right: String, expected: Bool) throws {
        #expect(try value(left).isEqualAsValue(to: value(right)) == expected)
        #expect(try value(right).isEqualAsValue(to: value(left)) == expected)
    }

    @Test func hashableEqualityStaysTextual() throws {
        #expect(try value("1") != value("1.0"))
    }
}
