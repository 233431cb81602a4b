import Foundation
import SophonCore

extension GeminiSchema {
    /// Checks `value` against this schema, locally (no request).
    ///
    /// Checks, per schema: `nullable` and `type` (an `INTEGER` is a number with no fractional
    /// part: `3.0` counts), `anyOf` (the closest branch's violations when none matches),
    /// `enum`, `minLength`/`maxLength` (in Unicode scalars, as JSON Schema counts), `pattern`
    /// (an unanchored ICU search, as `NSRegularExpression`), `minimum`/`maximum` (inclusive),
    /// `minItems`/`maxItems` and every element against `items`, `required` members,
    /// `minProperties`/`maxProperties` and every present member against `properties`. Members
    /// the schema does not name are allowed (Gemini Schema has no `additionalProperties`).
    /// - Parameter value: the value to check.
    /// - Returns: the violations, depth first in schema order; empty when the value is valid.
    ///   Messages read `$.year: expected integer, got string "2016"`,
    ///   `$.tags[1]: expected string, got number 3`, `$: missing required property "title"`.
    public func validate(_ value: JSONValue) -> [GeminiSchemaIssue] {
        var violations: [GeminiSchemaIssue] = []
        SchemaValidator.check(value, against: self, path: "$", into: &violations)
        return violations
    }

    /// Whether `value` has no violations (see ``validate(_:)``).
    public func isValid(_ value: JSONValue) -> Bool { validate(value).isEmpty }
}

/// The checks behind ``GeminiSchema/validate(_:)``.
enum SchemaValidator {
    static func check(
        _ value: JSONValue, against schema: GeminiSchema, path: String,
        into violations: inout [GeminiSchemaIssue]
    ) {
        func report(_ message: String) {
            violations.append(GeminiSchemaIssue(path: path, message: message))
        }

        if case .null = value, schema.nullable == true || schema.type == .null { return }
        if let branches = schema.anyOf, !branches.isEmpty {
            // None matching: report the closest branch (one whose type fits first, then fewest).
            var closest: (rank: Int, found: [GeminiSchemaIssue])?
            for branch in branches {
                var found: [GeminiSchemaIssue] = []
                check(value, against: branch, path: path, into: &found)
                if found.isEmpty {
                    closest = nil
                    break
                }
                let rank = mismatchRank(value, branch, found)
                if closest == nil || rank < (closest?.rank ?? 0) { closest = (rank, found) }
            }
            if let closest { violations += closest.found }
        }
        if let type = schema.type, !matches(value, type) {
            report("expected \(type), got \(JSONValueText.describe(value))")
            return
        }
        switch value {
        case .string(let text):
            checkString(text, value: value, schema: schema, report: report)
        case .number(let number):
            checkEnum(value, schema: schema, report: report)
            let double = number.doubleValue
            if !double.isFinite {
                report("expected \(schema.type ?? .number), got number \(number.text) (out of range)")
                return
            }
            if schema.type == .integer, SchemaCoercer.isOutsideInt64(number) {
                report("expected integer, got number \(number.text) (out of the 64-bit range)")
                return
            }
            if let minimum = schema.minimum, double < minimum {
                report("expected at least \(numberText(minimum)), got \(number.text)")
            }
            if let maximum = schema.maximum, double > maximum {
                report("expected at most \(numberText(maximum)), got \(number.text)")
            }
        case .bool:
            checkEnum(value, schema: schema, report: report)
        case .array(let elements):
            if let minItems = schema.minItems, elements.count < minItems {
                report("expected at least \(count(minItems, "item")), got \(elements.count)")
            }
            if let maxItems = schema.maxItems, elements.count > maxItems {
                report("expected at most \(count(maxItems, "item")), got \(elements.count)")
            }
            if let items = schema.items {
                for (index, element) in elements.enumerated() {
                    check(element, against: items, path: JSONPath.index(path, index), into: &violations)
                }
            }
        case .object(let members):
            checkObject(members, value: value, schema: schema, path: path, into: &violations)
        case .null:
            if schema.type == nil, schema.enumValues != nil {
                checkEnum(value, schema: schema, report: report)
            }
        }
    }

    private static func checkString(
        _ text: String, value: JSONValue, schema: GeminiSchema, report: (String) -> Void
    ) {
        checkEnum(value, schema: schema, report: report)
        let length = text.unicodeScalars.count
        if let minLength = schema.minLength, length < minLength {
            report("expected at least \(count(minLength, "character")), got \(length)")
        }
        if let maxLength = schema.maxLength, length > maxLength {
            report("expected at most \(count(maxLength, "character")), got \(length)")
        }
        if let pattern = schema.pattern {
            guard let regex = try? NSRegularExpression(pattern: pattern) else {
                report(
                    "the schema's pattern \(JSONValueText.quoted(pattern)) is not a valid regular expression")
                return
            }
            let range = NSRange(text.startIndex..<text.endIndex, in: text)
            if regex.firstMatch(in: text, range: range) == nil {
                report(
                    "\(JSONValueText.describe(value)) does not match pattern \(JSONValueText.quoted(pattern))"
                )
            }
        }
    }

    private static func checkObject(
        _ members: [JSONMember], value: JSONValue, schema: GeminiSchema, path: String,
        into violations: inout [GeminiSchemaIssue]
    ) {
        func report(_ message: String) {
            violations.append(GeminiSchemaIssue(path: path, message: message))
        }
        for name in schema.required ?? [] where value[name] == nil {
            report("missing required property \(JSONValueText.quoted(name))")
        }
        if schema.minProperties != nil || schema.maxProperties != nil {
            let memberCount = Set(members.map(\.key)).count
            if let minProperties = schema.minProperties, memberCount < minProperties {
                report("expected at least \(count(minProperties, "property")), got \(memberCount)")
            }
            if let maxProperties = schema.maxProperties, memberCount > maxProperties {
                report("expected at most \(count(maxProperties, "property")), got \(memberCount)")
            }
        }
        for property in schema.properties?.ordered(by: schema.propertyOrdering) ?? [] {
            guard let member = value[property.name] else { continue }
            check(
                member, against: property.schema, path: JSONPath.member(path, property.name),
                into: &violations)
        }
    }

    /// Enum values are strings; a number or boolean matches the string of its JSON text.
    private static func checkEnum(_ value: JSONValue, schema: GeminiSchema, report: (String) -> Void) {
        guard let allowed = schema.enumValues else { return }
        let text: String
        switch value {
        case .string(let string): text = string
        case .number, .bool, .null: text = value.compactText
        case .array, .object: return
        }
        if !allowed.contains(text) {
            let list = allowed.map(JSONValueText.quoted).joined(separator: ", ")
            report("expected one of \(list), got \(JSONValueText.describe(value))")
        }
    }

    /// Orders failed matches: a value whose type the schema rejects ranks after any whose type
    /// fits, then by the number of violations.
    static func mismatchRank(
        _ value: JSONValue, _ schema: GeminiSchema, _ violations: [GeminiSchemaIssue]
    ) -> Int {
        let typeFits =
            schema.type.map { matches(value, $0) } ?? true || (value == .null && schema.nullable == true)
        return (typeFits ? 0 : 1 << 40) + violations.count
    }

    static func matches(_ value: JSONValue, _ type: GeminiSchemaType) -> Bool {
        switch (type, value) {
        case (.string, .string), (.number, .number), (.boolean, .bool), (.array, .array),
            (.object, .object), (.null, .null), (.unknown, _):
            return true
        case (.integer, .number(let number)):
            let double = number.doubleValue
            return double.isFinite && double == double.rounded()
        default:
            return false
        }
    }

    private static func numberText(_ value: Double) -> String {
        JSONNumber(value)?.text ?? "\(value)"
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "1 \(noun)" }
        return noun == "property" ? "\(count) properties" : "\(count) \(noun)s"
    }
}

/// Something found in or done to a schema or a value, with where it was: a value failing its
/// schema (``GeminiSchema/validate(_:)``), a value changed to fit it (coercion), a schema the
/// API would reject (``GeminiSchema/apiProblems()``), or a JSON Schema keyword the converter
/// changed or left out (``GeminiSchemaDocument/notes``).
public struct GeminiSchemaIssue: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path: `$`, `$.year`, `$.tags[1]`, `$["odd key"]`, `$.properties.author`.
    public let path: String
    /// What is wrong or was done: `expected integer, got string "2016"`,
    /// `dropped "additionalProperties" (not accepted by the Gemini API)`.
    public let message: String

    /// Creates an issue.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `PATH: MESSAGE`, the line `validate` prints: `$.year: expected integer, got string "2016"`.
    public var description: String { "\(path): \(message)" }
}

extension GeminiSchema {
    /// What the API would refuse with a 400 INVALID_ARGUMENT (which recurs on every retry), found
    /// before sending (source: the Gemini API reference, `Schema`; the API answers each with 400):
    ///
    /// - `anyOf` beside other fields (the API wants `anyOf` as the only field);
    /// - `enum` on a type other than `STRING`;
    /// - an `OBJECT` with no properties;
    /// - a `required` or `propertyOrdering` name that is not a property;
    /// - a `type` the API does not know.
    ///
    /// - Returns: one entry per problem; its path is the schema's JSON path in the request's
    ///   `responseSchema` (`$.properties.tags.items`). Empty when nothing is known to fail.
    public func apiProblems() -> [GeminiSchemaIssue] {
        var problems: [GeminiSchemaIssue] = []
        collectAPIProblems(path: "$", into: &problems)
        return problems
    }

    private func collectAPIProblems(path: String, into problems: inout [GeminiSchemaIssue]) {
        func report(_ message: String) {
            problems.append(GeminiSchemaIssue(path: path, message: message))
        }
        if let anyOf, !anyOf.isEmpty {
            var alone = self
            alone.anyOf = nil
            if alone != GeminiSchema() { report("anyOf must be the only field of its schema") }
        }
        if case .unknown(let raw) = type { report("unknown type \(JSONValueText.quoted(raw))") }
        if enumValues != nil, let type, type != .string {
            report("enum is only allowed on STRING, not \(type.rawValue)")
        }
        if type == .object, properties?.isEmpty ?? true { report("an OBJECT needs at least one property") }
        let names = Set(properties?.names ?? [])
        for name in required ?? [] where !names.contains(name) {
            report("required names \(JSONValueText.quoted(name)), which is not a property")
        }
        for name in propertyOrdering ?? [] where !names.contains(name) {
            report("propertyOrdering names \(JSONValueText.quoted(name)), which is not a property")
        }
        items?.collectAPIProblems(path: JSONPath.member(path, "items"), into: &problems)
        for property in properties ?? GeminiSchemaProperties() {
            property.schema.collectAPIProblems(
                path: JSONPath.member(JSONPath.member(path, "properties"), property.name),
                into: &problems)
        }
        for (index, branch) in (anyOf ?? []).enumerated() {
            branch.collectAPIProblems(
                path: JSONPath.index(JSONPath.member(path, "anyOf"), index), into: &problems)
        }
    }
}
