import Foundation

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

    /// Reads the standard scalar types, `Decimal`, `URL`, and `[String]` from a string;
    /// everything else is `.notSpecial`.
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
