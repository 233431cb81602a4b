import Testing

@testable import SophonCore

/// Field-by-field differences (`compare`'s `$.year: 1965 | 1966`).
@Suite struct JSONDifferenceTests {
    static func parse(_ text: String) -> JSONValue? { try? JSONValue(parsing: text) }

    @Test(arguments: [
        ([#"{"title":"Dune","year":1965}"#, #"{"title":"Dune","year":1966}"#], ["$.year: 1965 | 1966"]),
        ([#"{"a":10}"#, #"{"a":10.0}"#, #"{"a":1e1}"#], []),
        ([#"{"a":1}"#, #"{"b":1}"#], ["$.a: 1 | (missing)", "$.b: (missing) | 1"]),
        ([#"{"tags":["x","y"]}"#, #"{"tags":["x"]}"#], [#"$.tags[1]: "y" | (missing)"#]),
        ([#"{"n":{"first name":"A"}}"#, #"{"n":{"first name":"B"}}"#], [#"$.n["first name"]: "A" | "B""#]),
        ([#"{"a":[1]}"#, #"{"a":{"0":1}}"#], [#"$.a: [1] | {"0":1}"#]),
    ])
    func differences(values: [String], expected: [String]) {
        #expect(JSONDifference.among(values.map(Self.parse)).map(\.description) == expected)
    }
}
