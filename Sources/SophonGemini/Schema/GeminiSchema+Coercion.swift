import Foundation
import SophonCore

/// A value brought closer to its schema, and what was changed.
public struct GeminiSchemaCoercion: Sendable, Hashable {
    /// The coerced value.
    public let value: JSONValue
    /// One note per change, in document order: `$.year: string "2016" read as integer 2016`.
    public let changes: [GeminiSchemaIssue]
    /// The same changes as records: path, the value before, the value after.
    public let details: [GeminiCoercion]

    /// Creates a coercion result whose ``changes`` are the notes of `details`.
    init(value: JSONValue, details: [GeminiCoercion]) {
        self.value = value
        self.details = details
        self.changes = details.map { GeminiSchemaIssue(path: $0.path, message: $0.note) }
    }
}

/// One change lenient reading made to a value so it fits its schema or type: where, what was
/// there, and what it became (docs/library.md, "What a result lists").
///
/// ``description`` is the line ``GeminiResult/coercions`` lists for it:
/// `$.year: string "2021" read as number 2021`.
public struct GeminiCoercion: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value (`$.year`, `$.tags[0]`).
    public let path: String
    /// The value as the model wrote it.
    public let from: JSONValue
    /// What it was read as; `nil` when the member was removed (a null word in an optional
    /// field that is not nullable).
    public let to: JSONValue?
    /// What happened, without the path: `string "2021" read as number 2021`.
    public let note: String

    /// Creates a coercion record.
    public init(path: String, from: JSONValue, to: JSONValue?, note: String) {
        self.path = path
        self.from = from
        self.to = to
        self.note = note
    }

    /// The record of a lenient decoder's coercion (SophonCore's `JSONCoercion`).
    public init(_ coercion: JSONCoercion) {
        let text = coercion.description
        let prefix = coercion.path + ": "
        self.init(
            path: coercion.path, from: coercion.from, to: coercion.to,
            note: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
    }

    /// `PATH: NOTE`, as listed in ``GeminiResult/coercions``.
    public var description: String { "\(path): \(note)" }
}

extension GeminiSchema {
    /// Applies the usual LLM-output coercions where the schema says what a value should be:
    ///
    /// - `NUMBER`/`INTEGER` from a string: `"7"`, `"7.0"`, `"$1,299.99"`, `"1,024"`, `"85%"`
    ///   (85); an `INTEGER` given a fraction is truncated toward zero (`7.9` -> 7);
    /// - `BOOLEAN` from the words of SophonCore's `LenientReading` (`"true"`/`"false"`,
    ///   `"yes"`/`"no"`, `"y"`/`"n"`, `"1"`/`"0"`, any case, spaces around) and the numbers 1
    ///   and 0;
    /// - `STRING` from a number or boolean (its JSON text), and an enum value matched without
    ///   regard to case becomes the schema's spelling;
    /// - null words (`LenientReading.nullWords`: `"null"`, `"none"`, `"N/A"`, `""`, `"nil"`,
    ///   `"na"`, `"-"`, `"undefined"`, any case), also where a string is expected (as the lenient
    ///   decoder reads them for a `String?`) unless the schema's enum has that word: `null` when
    ///   the schema is nullable, else the member is removed when it is not required (a required
    ///   string keeps the word as its value); the same
    ///   for `null` itself in an optional member that is not nullable, and for a number that no
    ///   `NUMBER` can hold (`1e999`, also as a string) or, for `INTEGER`, one outside the 64-bit
    ///   range (docs/library.md: null words, out-of-range and non-finite numbers read as nil);
    /// - `ARRAY` from a single value (`"a"` -> `["a"]`), and a comma-separated string for an
    ///   array of strings (`"a, b"` -> `["a","b"]`, `LenientReading.listItems(_:)`).
    ///
    /// Values that already fit are left alone, and nothing is invented: a value that cannot be
    /// coerced stays as it was (``validate(_:)`` then reports it).
    /// - Returns: the coerced value and one note per change (path and `X read as Y`).
    public func coerce(_ value: JSONValue) -> GeminiSchemaCoercion {
        var changes: [GeminiCoercion] = []
        let result = SchemaCoercer.coerce(value, self, path: "$", changes: &changes)
        return GeminiSchemaCoercion(value: result, details: changes)
    }
}

/// The rules behind ``GeminiSchema/coerce(_:)``.
enum SchemaCoercer {
    static func coerce(
        _ value: JSONValue, _ schema: GeminiSchema, path: String, changes: inout [GeminiCoercion]
    ) -> JSONValue {
        func changed(_ result: JSONValue, _ how: String = "read as") -> JSONValue {
            changes.append(
                GeminiCoercion(
                    path: path, from: value, to: result,
                    note: "\(JSONValueText.describe(value)) \(how) \(JSONValueText.describe(result))"))
            return result
        }
        guard let type = schema.type else { return value }
        if case .string(let text) = value, schema.nullable == true, readsAsNullWord(text, schema) {
            return changed(.null)
        }
        if schema.nullable == true, isOutOfRange(value, type) {
            return changed(.null, "out of range, read as")
        }
        switch (type, value) {
        case (.integer, .string(let text)), (.number, .string(let text)):
            guard let number = number(from: text) else { return value }
            return changed(type == .integer ? truncated(number) ?? .number(number) : .number(number))
        case (.integer, .number(let number)):
            guard !SchemaValidator.matches(value, .integer), let whole = truncated(number) else {
                return value
            }
            return changed(whole, "truncated to")
        case (.boolean, .string(let text)):
            guard let flag = LenientReading.bool(fromWord: text) else { return value }
            return changed(.bool(flag))
        case (.boolean, .number(let number)):
            guard let flag = LenientReading.bool(fromNumber: number) else { return value }
            return changed(.bool(flag))
        case (.string, .number), (.string, .bool):
            return changed(.string(value.compactText))
        case (.string, .string(let text)):
            guard let allowed = schema.enumValues, !allowed.contains(text),
                let match = allowed.first(where: { $0.lowercased() == text.lowercased() })
            else { return value }
            return changed(.string(match))
        case (.array, .array(let elements)):
            guard let items = schema.items else { return value }
            return .array(
                elements.enumerated().map { index, element in
                    coerce(element, items, path: JSONPath.index(path, index), changes: &changes)
                })
        case (.array, .null):
            return value
        case (.array, .string(let text)) where schema.items?.type == .string && text.contains(","):
            return changed(.array(LenientReading.listItems(text).map(JSONValue.string)))
        case (.array, _):
            let wrapped = changed(.array([value]), "wrapped as")
            guard let items = schema.items else { return wrapped }
            return .array([coerce(value, items, path: JSONPath.index(path, 0), changes: &changes)])
        case (.object, .object(let members)):
            return .object(coerceMembers(members, schema, path: path, changes: &changes))
        default:
            return value
        }
    }

    private static func coerceMembers(
        _ members: [JSONMember], _ schema: GeminiSchema, path: String, changes: inout [GeminiCoercion]
    ) -> [JSONMember] {
        let required = Set(schema.required ?? [])
        var result: [JSONMember] = []
        for member in members {
            guard let propertySchema = schema.properties?[member.key] else {
                result.append(member)
                continue
            }
            let memberPath = JSONPath.member(path, member.key)
            if let type = propertySchema.type, propertySchema.nullable != true,
                !required.contains(member.key),
                let reason = absentReading(member.value, type, propertySchema)
            {
                changes.append(
                    GeminiCoercion(
                        path: memberPath, from: member.value, to: nil,
                        note: "\(JSONValueText.describe(member.value)) removed (\(reason))"))
                continue
            }
            result.append(
                JSONMember(
                    member.key, coerce(member.value, propertySchema, path: memberPath, changes: &changes)))
        }
        return result
    }

    /// Why an optional, non-nullable member holding `value` reads as absent for a `type`
    /// schema, or `nil` when it does not: a null word where no string is expected, `null`, or
    /// a number out of range.
    private static func absentReading(_ value: JSONValue, _ type: GeminiSchemaType, _ schema: GeminiSchema)
        -> String?
    {
        switch value {
        case .null where type != .null: return "read as absent"
        case .string(let text) where readsAsNullWord(text, schema):
            return "read as absent"
        default: return isOutOfRange(value, type) ? "out of range, read as absent" : nil
        }
    }

    /// Whether `text` is a null word (``LenientReading/isNullWord(_:)``) that stands for no
    /// value under `schema`: always, except a word the schema's enum lists (any case), as the
    /// lenient decoder matches an enum case before reading a null word as nil.
    static func readsAsNullWord(_ text: String, _ schema: GeminiSchema) -> Bool {
        guard LenientReading.isNullWord(text) else { return false }
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return !(schema.enumValues ?? []).contains { $0.lowercased() == word }
    }

    /// Whether `value`, where a `NUMBER` or `INTEGER` is expected, is a number no double holds
    /// (`1e999`, as a number or a string), or for `INTEGER` one outside the 64-bit range.
    static func isOutOfRange(_ value: JSONValue, _ type: GeminiSchemaType) -> Bool {
        guard type == .number || type == .integer else { return false }
        let number: JSONNumber
        switch value {
        case .number(let literal): number = literal
        case .string(let text):
            guard let read = LenientReading.number(text) else { return false }
            number = read
        default: return false
        }
        guard number.doubleValue.isFinite else { return true }
        return type == .integer && isOutsideInt64(number)
    }

    /// Whether `number` is outside `Int64`'s range (`9223372036854775807` is inside; the literal
    /// is read exactly when it is a plain integer, else through a double).
    static func isOutsideInt64(_ number: JSONNumber) -> Bool {
        if Int64(number.text) != nil { return false }
        return abs(number.doubleValue) >= 9.223_372_036_854_775_808e18
    }

    /// A number from text such as `7`, `-7.5`, `$1,299.99`, `1,024`, `85%`, read by SophonCore's
    /// ``LenientReading/number(_:)`` (digits kept exactly); `nil` for text that is not a number
    /// or is out of range (`"1e999"`: never a non-finite value).
    static func number(from text: String) -> JSONNumber? {
        guard let number = LenientReading.number(text), number.doubleValue.isFinite else { return nil }
        return number
    }

    /// `number` truncated toward zero, when finite and within ±2^53 (exact in a double).
    static func truncated(_ number: JSONNumber) -> JSONValue? {
        if Int(number.text) != nil { return .number(number) }
        let double = number.doubleValue
        guard double.isFinite, abs(double) < 9_007_199_254_740_992 else { return nil }
        return .integer(Int(double.rounded(.towardZero)))
    }
}

/// The candidate chosen among several JSON values for a schema (schema-guided extraction).
public struct GeminiSchemaCandidateSelection: Sendable, Hashable {
    /// The position of the chosen value in the candidate list.
    public let index: Int
    /// The chosen value, after coercion when coercion was asked for and changed something.
    public let value: JSONValue
    /// Its violations: empty when it validates; otherwise those of the closest candidate.
    public let violations: [GeminiSchemaIssue]
    /// The coercions applied to reach ``value`` (see ``GeminiSchema/coerce(_:)``).
    public let coercions: [GeminiSchemaIssue]
    /// The same coercions as records (path, before, after); empty for a selection made with
    /// ``init(index:value:violations:coercions:)``.
    public let coercionDetails: [GeminiCoercion]

    /// Creates a selection.
    public init(
        index: Int, value: JSONValue, violations: [GeminiSchemaIssue],
        coercions: [GeminiSchemaIssue] = []
    ) {
        self.index = index
        self.value = value
        self.violations = violations
        self.coercions = coercions
        self.coercionDetails = []
    }

    /// Creates a selection from a coercion's records.
    init(index: Int, violations: [GeminiSchemaIssue], coercion: GeminiSchemaCoercion) {
        self.index = index
        self.value = coercion.value
        self.violations = violations
        self.coercions = coercion.changes
        self.coercionDetails = coercion.details
    }

    /// Whether the chosen value validates.
    public var isValid: Bool { violations.isEmpty }
}

extension GeminiSchema {
    /// Picks, among the values an extractor found in a reply (in reply order), the one to use:
    ///
    /// 1. the first that validates as it is (with `coercing`, after the coercions that keep it
    ///    valid: a null word in an optional string field reads as absent, as the lenient
    ///    decoder reads it);
    /// 2. with `coercing`, the first that validates after ``coerce(_:)`` (the changes listed in
    ///    ``GeminiSchemaCandidateSelection/coercions``);
    /// 3. otherwise the closest (coerced, with `coercing`), with its violations so the caller
    ///    can say what is wrong: a value of the schema's top-level type beats one of another
    ///    type, then fewer violations win, then the earlier value.
    /// - Parameters:
    ///   - candidates: the values found, in order.
    ///   - coercing: whether to try the coercions of ``coerce(_:)`` (default `true`).
    /// - Returns: the choice, or `nil` when `candidates` is empty.
    public func selectCandidate(from candidates: [JSONValue], coercing: Bool = true)
        -> GeminiSchemaCandidateSelection?
    {
        for (index, candidate) in candidates.enumerated() where validate(candidate).isEmpty {
            if coercing {
                let coercion = coerce(candidate)
                if !coercion.changes.isEmpty, validate(coercion.value).isEmpty {
                    return GeminiSchemaCandidateSelection(index: index, violations: [], coercion: coercion)
                }
            }
            return GeminiSchemaCandidateSelection(index: index, value: candidate, violations: [])
        }
        var best: (rank: Int, selection: GeminiSchemaCandidateSelection)?
        for (index, candidate) in candidates.enumerated() {
            let coercion = coercing ? coerce(candidate) : GeminiSchemaCoercion(value: candidate, details: [])
            let violations = validate(coercion.value)
            let selection = GeminiSchemaCandidateSelection(
                index: index, violations: violations, coercion: coercion)
            if violations.isEmpty { return selection }
            let rank = SchemaValidator.mismatchRank(coercion.value, self, violations)
            if best == nil || rank < (best?.rank ?? 0) { best = (rank, selection) }
        }
        return best?.selection
    }
}
