extension JSONNumber {
    /// -1, 0 or 1 as this number is less than, equal to or greater than `other`, compared as
    /// exact decimals: `10` equals `10.0`, `1e3` equals `1000`, `-0` equals `0`, and
    /// `12345678901234567890` is less than `12345678901234567891` (no rounding through a
    /// double, no overflow for `1e400`).
    public func compare(_ other: JSONNumber) -> Int {
        if text == other.text { return 0 }
        guard let left = DecimalLiteral(text), let right = DecimalLiteral(other.text) else {
            // Unreachable: a JSONNumber always holds valid JSON number syntax.
            return text < other.text ? -1 : 1
        }
        return left.compare(right)
    }

    /// Whether the two numbers have the same exact decimal value (see ``compare(_:)``).
    public func isNumericallyEqual(to other: JSONNumber) -> Bool {
        compare(other) == 0
    }
}

extension JSONValue {
    /// Whether two values are equal as JSON values, the rule `expect` and tape replay share:
    ///
    /// - numbers by exact decimal value (``JSONNumber/compare(_:)``: `1.0` equals `1`);
    /// - objects by their members regardless of order; a repeated key counts once, with its
    ///   last value, as lookups read it;
    /// - arrays element by element, in order;
    /// - strings, booleans and `null` exactly.
    ///
    /// `==` (from `Hashable`) stays textual: `1.0 != 1` there, and member order counts.
    public func isEqualAsValue(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let left), .number(let right)):
            return left.isNumericallyEqual(to: right)
        case (.array(let left), .array(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.isEqualAsValue(to: $1) }
        case (.object(let left), .object(let right)):
            let leftValues = JSONValue.lastValues(left)
            let rightValues = JSONValue.lastValues(right)
            guard leftValues.count == rightValues.count else { return false }
            return leftValues.allSatisfy { key, value in
                rightValues[key].map { value.isEqualAsValue(to: $0) } ?? false
            }
        default:
            return self == other
        }
    }

    /// Each key's last value (a repeated key counts once, as in lookups).
    package static func lastValues(_ members: [JSONMember]) -> [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
