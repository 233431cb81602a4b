import SophonCore

/// The first place where two JSON values differ when compared as values, by the rule of
/// ``JSONValue/isEqualAsValue(to:)``: object member order is irrelevant, numbers compare as
/// exact decimals (`1.0` equals `1`), everything else exactly.
struct JSONValueDifference: Sendable, Hashable {
    /// Where the values differ.
    var path: JSONPath
    /// The value on the recorded side; `nil` when the member or element is absent there.
    var recorded: JSONValue?
    /// The value on the new side; `nil` when absent.
    var got: JSONValue?

    /// The most characters of a value shown in a message.
    static let displayLimit = 80

    /// The first difference between `recorded` and `got`, in document order of `recorded`
    /// (members only `got` has come after), or `nil` when they are equal as values.
    static func first(recorded: JSONValue, got: JSONValue) -> JSONValueDifference? {
        first(recorded, got, at: JSONPath())
    }

    /// A value for a message: compact JSON, shortened to ``displayLimit`` characters with `…`,
    /// or `(absent)`.
    static func display(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        return TextExcerpt.prefix(value.compactText, limit: displayLimit)
    }

    private static func first(_ recorded: JSONValue, _ got: JSONValue, at path: JSONPath)
        -> JSONValueDifference?
    {
        switch (recorded, got) {
        case (.object(let left), .object(let right)):
            // A repeated key counts once, with its last value, as in `JSONValue` lookups; keys
            // are looked up in a dictionary, so large objects compare in linear time.
            let leftValues = JSONValue.lastValues(left)
            let rightValues = JSONValue.lastValues(right)
            for key in keysInOrder(left) {
                let path = path.appending(.key(key))
                guard let value = leftValues[key] else { continue }
                guard let other = rightValues[key] else {
                    return JSONValueDifference(path: path, recorded: value, got: nil)
                }
                if let difference = first(value, other, at: path) { return difference }
            }
            for key in keysInOrder(right) where leftValues[key] == nil {
                return JSONValueDifference(
                    path: path.appending(.key(key)), recorded: nil, got: rightValues[key])
            }
            return nil
        case (.array(let left), .array(let right)):
            for index in 0..<max(left.count, right.count) {
                let path = path.appending(.index(index))
                guard index < left.count, index < right.count else {
                    return JSONValueDifference(
                        path: path, recorded: left.indices.contains(index) ? left[index] : nil,
                        got: right.indices.contains(index) ? right[index] : nil)
                }
                if let difference = first(left[index], right[index], at: path) { return difference }
            }
            return nil
        case (.number(let left), .number(let right)):
            return left.isNumericallyEqual(to: right)
                ? nil : JSONValueDifference(path: path, recorded: recorded, got: got)
        default:
            return recorded == got ? nil : JSONValueDifference(path: path, recorded: recorded, got: got)
        }
    }

    /// Each key once, in the order of its first appearance.
    private static func keysInOrder(_ members: [JSONMember]) -> [String] {
        var seen = Set<String>()
        return members.map(\.key).filter { seen.insert($0).inserted }
    }
}
