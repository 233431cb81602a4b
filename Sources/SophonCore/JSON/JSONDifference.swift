/// Where several JSON values differ, field by field (`compare`'s `$.year: 1965 | 1966`;
/// docs/commands.md, "compare").
///
/// Objects are walked member by member (every name any of them has, in the order first seen),
/// arrays index by index; anywhere the values are not all objects or all arrays, they are
/// compared as values (`10` equals `10.0`, ``JSONValue/isEqualAsValue(to:)``), and one line
/// names the path when they differ. A value missing at a path is `nil` there.
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// The path, as `$.year` or `$.tags[1]`.
    public var path: String
    /// The value of each input at ``path``, in input order; `nil` where an input has none.
    public var values: [JSONValue?]

    /// Creates a difference.
    public init(path: String, values: [JSONValue?]) {
        self.path = path
        self.values = values
    }

    /// `$.year: 1965 | 1966`: compact JSON values, `(missing)` for a value an input lacks.
    public var description: String {
        path + ": " + values.map { $0?.compactText ?? "(missing)" }.joined(separator: " | ")
    }

    /// The differences among `values` (at least two), in document order; empty when they are
    /// all equal.
    public static func among(_ values: [JSONValue?]) -> [JSONDifference] {
        var found: [JSONDifference] = []
        collect(values, path: JSONPath.root, into: &found)
        return found
    }

    private static func collect(_ values: [JSONValue?], path: String, into found: inout [JSONDifference]) {
        let objects = values.compactMap { value -> [JSONMember]? in
            if case .object(let members) = value { return members }
            return nil
        }
        if objects.count == values.count, !values.isEmpty {
            var names: [String] = []
            var seen: Set<String> = []
            for members in objects {
                for member in members where seen.insert(member.key).inserted { names.append(member.key) }
            }
            for name in names {
                let members = objects.map { members in members.last { $0.key == name }?.value }
                collect(members, path: JSONPath.member(path, name), into: &found)
            }
            return
        }
        let arrays = values.compactMap { value -> [JSONValue]? in
            if case .array(let items) = value { return items }
            return nil
        }
        if arrays.count == values.count, !values.isEmpty {
            let longest = arrays.map(\.count).max() ?? 0
            for index in 0..<longest {
                collect(
                    arrays.map { index < $0.count ? $0[index] : nil }, path: JSONPath.index(path, index),
                    into: &found)
            }
            return
        }
        guard let first = values.first else { return }
        let same = values.dropFirst().allSatisfy { value in
            switch (first, value) {
            case (nil, nil): true
            case (let a?, let b?): a.isEqualAsValue(to: b)
            default: false
            }
        }
        if !same { found.append(JSONDifference(path: path, values: values)) }
    }
}
