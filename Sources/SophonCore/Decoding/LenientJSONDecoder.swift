/// Decodes any `Decodable` type from a ``JSONValue`` the way LLMs write JSON, and reports
/// every change it had to make.
///
/// The readings are those of ``LLMDecoding``:
/// - numbers in strings for any numeric type (`"7"`, `"7.0"`, `"$1,299.99"`, `"1,024"`,
///   `"85%"` is 85), and `Decimal` the same way;
/// - a fraction where an integer is expected is truncated toward zero (`7.9` -> 7);
/// - `"yes"`/`"no"`, `"true"`/`"false"`, `"y"`/`"n"`, `"1"`/`"0"` and the numbers 1/0 for
///   `Bool`; numbers and booleans for `String` (as their text);
/// - for an optional: `null`, a missing key and a null word (``LenientReading/nullWords``) are
///   `nil`, and so is a number out of the type's range or not finite (`300` for `Int8?`,
///   `1e400` for `Double?`);
/// - a single value where an array is expected is a one-element array (its element is at
///   index 0 in later paths), and a string where `[String]` is expected is split on commas
///   (trimmed, empty items and null words dropped: `"a, b"` -> `["a", "b"]`);
/// - a `CaseIterable` enum with `String` raw values also matches ignoring case and surrounding
///   spaces (`"Done "` for `case done`); for an optional such enum a null word that is one of
///   its raw values reads as that case, not `nil`.
///
/// Every change except reading a plain `null` or a missing key as `nil` is reported as a
/// ``JSONCoercion``. `URL` is read from a string; `Date` from an ISO 8601 date-time string
/// (the `date-time` format of a schema derived from a type), else through its own `Decodable`
/// conformance (a number of seconds since 2001-01-01); other Foundation types use their own.
///
/// Errors are standard `DecodingError`s whose `codingPath` leads to the value:
/// - `keyNotFound` for a missing key where the value is not optional;
/// - `valueNotFound` for `null` or a null word where the value is not optional, or for
///   reading past the end of an array;
/// - `typeMismatch` for a value that cannot be read as the type (`"abc"` for `Int`);
/// - `dataCorrupted` for an out-of-range number where the value is not optional (`300` for
///   `Int8`), an invalid URL, or an enum raw value that matches no case.
/// The `debugDescription`s read `Expected Int, found string "abc".`;
/// ``LLMDecoding/summary(of:)`` turns any of them into one line.
public struct LenientJSONDecoder: Sendable {
    /// Values handed to the types being decoded through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    ///
    /// - Parameter userInfo: values for `Decoder.userInfo`.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes `type` from `value`.
    ///
    /// - Parameters:
    ///   - type: the type to decode; `Optional` types are allowed (a top-level `null` or null
    ///     word is then `nil`).
    ///   - value: the JSON value, e.g. from ``LLMJSONExtractor``.
    /// - Returns: the value and the coercions made, in the order they were made.
    /// - Throws: `DecodingError` as described on ``LenientJSONDecoder``.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws
        -> LenientDecodingResult<T>
    {
        let session = LenientDecodingSession(userInfo: userInfo)
        let decoded = try session.decode(type, from: value, at: [])
        return LenientDecodingResult(value: decoded, coercions: session.coercions)
    }
}

/// A decoded value and the coercions made to read it.
public struct LenientDecodingResult<T> {
    /// The decoded value.
    public let value: T
    /// The changes made, in the order they were made (document order for synthesized
    /// `Decodable` conformances).
    public let coercions: [JSONCoercion]

    /// Creates a result.
    public init(value: T, coercions: [JSONCoercion]) {
        self.value = value
        self.coercions = coercions
    }
}

extension LenientDecodingResult: Sendable where T: Sendable {}
extension LenientDecodingResult: Equatable where T: Equatable {}
