import Foundation

/// The state of one ``LenientJSONDecoder/decode(_:from:)`` call: the coercions recorded and
/// the reading rules shared by every container.
///
/// A class because every decoder and container made during one decode appends to the same
/// list; it never leaves the call that created it.
final class LenientDecodingSession {
    let userInfo: [CodingUserInfoKey: Any]
    private(set) var coercions: [JSONCoercion] = []

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo
    }

    /// Records one coercion at `codingPath`.
    func record(
        _ kind: JSONCoercion.Kind, from: JSONValue, to: JSONValue, at codingPath: [any CodingKey]
    ) {
        coercions.append(
            JSONCoercion(jsonPath: JSONPath(codingPath: codingPath), kind: kind, from: from, to: to))
    }

    /// Decodes a value that must be present (an `Optional` type is still allowed).
    func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey]
    ) throws -> T {
        // The common scalars are not optionals: skip the conformance lookup for them.
        if !Self.isCommonScalar(type), let optionalType = type as? any LenientOptional.Type {
            let decoded = try optionalType.lenientDecode(from: value, at: codingPath, in: self)
            guard let result = decoded as? T else {
                throw DecodingError.typeMismatch(
                    type, context(codingPath, "Expected \(typeName(type)), found \(describe(value))."))
            }
            return result
        }
        guard let result = try unbox(value, as: type, at: codingPath, optional: false) else {
            throw DecodingError.valueNotFound(
                type, context(codingPath, "Expected \(typeName(type)), found \(describe(value))."))
        }
        return result
    }

    /// Decodes an optional value: `nil` for a missing value (no coercion) or `null`.
    func decodeIfPresent<T: Decodable>(
        _ type: T.Type, from value: JSONValue?, at codingPath: [any CodingKey]
    ) throws -> T? {
        guard let value else { return nil }
        return try unbox(value, as: type, at: codingPath, optional: true)
    }

    /// Whether `value` reads as `nil`: `null`, or a null word (recorded as a coercion).
    func isNil(_ value: JSONValue, at codingPath: [any CodingKey]) -> Bool {
        switch value {
        case .null:
            return true
        case .string(let text) where LenientReading.isNullWord(text):
            record(.nullWordToNil, from: value, to: .null, at: codingPath)
            return true
        default:
            return false
        }
    }

    /// Reads `value` as `T`; returns `nil` only when `optional` is true.
    func unbox<T: Decodable>(
        _ value: JSONValue, as type: T.Type, at codingPath: [any CodingKey], optional: Bool
    ) throws -> T? {
        if case .null = value {
            if optional { return nil }
            throw DecodingError.valueNotFound(
                type, context(codingPath, "Expected \(typeName(type)), found null."))
        }
        if optional, case .string(let text) = value, LenientReading.isNullWord(text) {
            if let match = enumMatch(type, text) {
                if match.raw != text {
                    record(.caseInsensitiveEnum, from: value, to: .string(match.raw), at: codingPath)
                }
                return match.value
            }
            record(.nullWordToNil, from: value, to: .null, at: codingPath)
            return nil
        }
        if case .handled(let result) = try unboxSpecial(
            value, as: type, at: codingPath, optional: optional)
        {
            return result
        }
        let mark = coercions.count
        do {
            return try T(from: LenientDecoderImpl(value: value, codingPath: codingPath, session: self))
        } catch {
            coercions.removeSubrange(mark...)
            if error is DecodingError, case .string(let text) = value,
                let match = enumMatch(type, text)
            {
                record(.caseInsensitiveEnum, from: value, to: .string(match.raw), at: codingPath)
                return match.value
            }
            throw error
        }
    }

    /// Turns a scalar reading into a value, a recorded coercion, `nil` or an error.
    func resolve<S>(
        _ reading: ScalarReading<S>, from value: JSONValue, as type: Any.Type,
        at codingPath: [any CodingKey], optional: Bool, json: (S) -> JSONValue
    ) throws -> S? {
        var name: String { typeName(type) }  // Only for messages: not built on success.
        switch reading {
        case .exact(let result):
            return result
        case .coerced(let result, let kind):
            record(kind, from: value, to: json(result), at: codingPath)
            return result
        case .nullWord:
            if optional {
                record(.nullWordToNil, from: value, to: .null, at: codingPath)
                return nil
            }
            throw DecodingError.valueNotFound(
                type, context(codingPath, "Expected \(name), found null word \(value.compactText)."))
        case .outOfRange:
            if optional {
                record(.outOfRangeToNil, from: value, to: .null, at: codingPath)
                return nil
            }
            throw DecodingError.dataCorrupted(
                context(codingPath, "Expected \(name), found \(describe(value)) (out of range)."))
        case .mismatch:
            throw DecodingError.typeMismatch(
                type, context(codingPath, "Expected \(name), found \(describe(value))."))
        }
    }

    /// The matching case of a `CaseIterable` enum with `String` raw values, ignoring case and
    /// surrounding whitespace; `nil` when `T` is no such enum or no single case matches.
    func enumMatch<T>(_ type: T.Type, _ text: String) -> (value: T, raw: String)? {
        guard let enumType = type as? any (CaseIterable & RawRepresentable).Type,
            let match = LenientDecodingSession.caseMatch(enumType, text),
            let value = match.value as? T
        else { return nil }
        return (value, match.raw)
    }

    private static func caseMatch<E: CaseIterable & RawRepresentable>(
        _ type: E.Type, _ text: String
    ) -> (value: Any, raw: String)? {
        let wanted = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let matches = E.allCases.compactMap { candidate -> (value: Any, raw: String)? in
            guard let raw = candidate.rawValue as? String, raw.lowercased() == wanted else {
                return nil
            }
            return (candidate, raw)
        }
        if let exact = matches.first(where: { $0.raw == text }) { return exact }
        return matches.count == 1 ? matches.first : nil
    }

    /// A `DecodingError.Context` at `codingPath`.
    func context(_ codingPath: [any CodingKey], _ description: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: description)
    }

    /// Whether `type` is `String`, `Int`, `Double` or `Bool`: metatype identity, no dynamic cast.
    static func isCommonScalar<T>(_ type: T.Type) -> Bool {
        type == String.self || type == Int.self || type == Double.self || type == Bool.self
    }

    /// The type's name as Swift prints it: `Int`, `Array<String>`.
    func typeName(_ type: Any.Type) -> String {
        String(describing: type)
    }

    /// The value for messages: `null`, `boolean true`, `number 7.5`, `string "abc"`,
    /// `array of 3 elements`, `object with 2 members`.
    func describe(_ value: JSONValue) -> String {
        switch value {
        case .null:
            return "null"
        case .bool, .number:
            return "\(value.typeName) \(value.compactText)"
        case .string:
            let text = value.compactText
            let limit = 60
            return "string " + (text.count > limit ? String(text.prefix(limit)) + "…\"" : text)
        case .array(let elements):
            return "array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .object(let members):
            return "object with \(members.count) member\(members.count == 1 ? "" : "s")"
        }
    }
}

/// `Optional`, seen from generic code that only knows `T: Decodable`, so that an `Int8?`
/// element of an array or a top-level optional gets the optional readings.
protocol LenientOptional {
    /// Decodes the optional from `value`.
    static func lenientDecode(
        from value: JSONValue, at codingPath: [any CodingKey], in session: LenientDecodingSession
    ) throws -> Self
}

extension Optional: LenientOptional where Wrapped: Decodable {
    static func lenientDecode(
        from value: JSONValue, at codingPath: [any CodingKey], in session: LenientDecodingSession
    ) throws -> Wrapped? {
        try session.unbox(value, as: Wrapped.self, at: codingPath, optional: true)
    }
}

/// Whether ``LenientDecodingSession/unboxSpecial(_:as:at:optional:)`` read the value itself.
enum SpecialOutcome<T> {
    /// Read: the value, or `nil` for an optional read as `nil`.
    case handled(T?)
    /// Not a type (or value) read specially: use the type's own `init(from:)`.
    case notSpecial
}

extension LenientDecodingSession {
    /// The integer types read with ``LenientScalar/readInteger(_:as:)``.
    private static let integerTypes: Set<ObjectIdentifier> = [
        ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self),
        ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
        ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
        ObjectIdentifier(UInt64.self),
    ]

    /// Reads the standard scalar types, `Decimal`, `URL`, ``Confidence``, and `[String]` from a
    /// string; everything else is `.notSpecial`.
    func unboxSpecial<T>(
        _ value: JSONValue, as type: T.Type, at codingPath: [any CodingKey], optional: Bool
    ) throws -> SpecialOutcome<T> {
        // The common scalars by metatype identity (the `is` cases below are dynamic casts).
        if type == String.self {
            let read = try resolve(
                LenientScalar.readString(value), from: value, as: type, at: codingPath,
                optional: optional, json: JSONValue.string)
            return .handled(read.map { $0 as! T })  // T is String here: the cast cannot fail.
        }
        if type == Int.self {
            let read = try unboxInteger(Int.self, from: value, at: codingPath, optional: optional)
            return .handled(read.map { $0 as! T })
        }
        if type == Double.self {
            let read = try resolve(
                LenientScalar.readDouble(value), from: value, as: type, at: codingPath,
                optional: optional, json: { JSONValue.double($0) ?? .null })
            return .handled(read.map { $0 as! T })
        }
        if type == Confidence.self {
            let read = try resolve(
                LenientScalar.readConfidence(value), from: value, as: type, at: codingPath,
                optional: optional, json: { JSONValue.double($0) ?? .null })
            return .handled(read.map { Confidence(fraction: $0) as! T })  // T is Confidence.
        }
        let result: Any?
        switch type {
        case is String.Type:
            result = try resolve(
                LenientScalar.readString(value), from: value, as: type, at: codingPath,
                optional: optional, json: JSONValue.string)
        case is Bool.Type:
            result = try resolve(
                LenientScalar.readBool(value), from: value, as: type, at: codingPath,
                optional: optional, json: JSONValue.bool)
        case is Double.Type:
            result = try resolve(
                LenientScalar.readDouble(value), from: value, as: type, at: codingPath,
                optional: optional, json: { JSONValue.double($0) ?? .null })
        case is Float.Type:
            result = try resolve(
                LenientScalar.readFloat(value), from: value, as: type, at: codingPath,
                optional: optional, json: LenientDecodingSession.json(of:))
        case is Decimal.Type:
            result = try resolve(
                LenientScalar.readDecimal(value), from: value, as: type, at: codingPath,
                optional: optional,
                json: { JSONNumber(text: $0.description).map(JSONValue.number) ?? .null })
        case is URL.Type:
            result = try unboxURL(value, at: codingPath)
        case is Date.Type:
            guard case .string(let text) = value else { return .notSpecial }
            result = try unboxDate(text, from: value, at: codingPath)
        case is [String].Type:
            guard case .string(let text) = value else { return .notSpecial }
            result = try unboxStringList(text, from: value, at: codingPath, optional: optional)
        default:
            guard let integerType = type as? any FixedWidthInteger.Type,
                LenientDecodingSession.integerTypes.contains(ObjectIdentifier(type))
            else { return .notSpecial }
            result = try unboxInteger(integerType, from: value, at: codingPath, optional: optional)
        }
        guard let result else { return .handled(nil) }
        guard let typed = result as? T else { return .notSpecial }
        return .handled(typed)
    }

    private func unboxInteger<Integer: FixedWidthInteger>(
        _ type: Integer.Type, from value: JSONValue, at codingPath: [any CodingKey], optional: Bool
    ) throws -> Integer? {
        try resolve(
            LenientScalar.readInteger(value, as: type), from: value, as: type, at: codingPath,
            optional: optional, json: { JSONNumber(text: String($0)).map(JSONValue.number) ?? .null })
    }

    /// A URL from a string (trimmed); other kinds are a type mismatch.
    private func unboxURL(_ value: JSONValue, at codingPath: [any CodingKey]) throws -> URL {
        guard case .string(let text) = value else {
            throw DecodingError.typeMismatch(
                URL.self, context(codingPath, "Expected URL, found \(describe(value))."))
        }
        guard let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw DecodingError.dataCorrupted(
                context(codingPath, "Expected URL, found \(describe(value)) (not a valid URL)."))
        }
        return url
    }

    /// A `Date` from an ISO 8601 date-time string (`2026-12-06T20:20:00Z`, fractional seconds
    /// and offsets allowed), as a schema's `date-time` format asks models to write it.
    private func unboxDate(_ text: String, from value: JSONValue, at codingPath: [any CodingKey]) throws
        -> Date
    {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: trimmed) ?? fractional.date(from: trimmed) else {
            throw DecodingError.dataCorrupted(
                context(codingPath, "Expected an ISO 8601 date-time, found \(describe(value))."))
        }
        return date
    }

    /// `[String]` from a string: its comma-separated items.
    private func unboxStringList(
        _ text: String, from value: JSONValue, at codingPath: [any CodingKey], optional: Bool
    ) throws -> [String]? {
        if LenientReading.isNullWord(text) {
            return try resolve(
                ScalarReading<[String]>.nullWord, from: value, as: [String].self, at: codingPath,
                optional: optional, json: { _ in .null })
        }
        let items = LenientScalar.commaSeparatedItems(text)
        record(
            text.contains(",") ? .commaSeparatedToArray : .singleValueToArray, from: value,
            to: .array(items.map(JSONValue.string)), at: codingPath)
        return items
    }

    /// A `Float` as JSON, in its shortest text (`0.1`, not `0.10000000149011612`).
    private static func json(of float: Float) -> JSONValue {
        let text = "\(float)".replacingOccurrences(of: "e+", with: "e")
        return JSONNumber(text: text).map(JSONValue.number) ?? JSONValue.double(Double(float)) ?? .null
    }
}
