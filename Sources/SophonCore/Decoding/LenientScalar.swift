import Foundation

/// The outcome of reading one JSON value as a scalar type.
enum ScalarReading<Value> {
    /// The value was already of the right kind and in range.
    case exact(Value)
    /// The value was read after a change of the given kind.
    case coerced(Value, JSONCoercion.Kind)
    /// A string holding a null word (see ``LenientReading/nullWords``).
    case nullWord
    /// A number (or numeric string) outside the type's range, or not finite.
    case outOfRange
    /// A value of a kind that cannot be read as the type (`"abc"` as a number, an object, ...).
    case mismatch

    /// The value read, if any.
    var value: Value? {
        switch self {
        case .exact(let value), .coerced(let value, _): value
        case .nullWord, .outOfRange, .mismatch: nil
        }
    }
}

/// The number forms of ``LenientReading``: number text found in a string and cleaned up: sign
/// kept; currency symbols ($ € £ ¥), surrounding spaces, one trailing `%` and thousands
/// separators removed.
struct NumericText {
    /// Decimal number text Swift's parsers accept: `-?digits(.digits)?(e[+-]?digits)?`.
    let text: String
    /// Whether a `%` was removed.
    let isPercent: Bool
    /// Whether `text` has neither a fraction nor an exponent.
    let isIntegerSyntax: Bool

    private static let currencySymbols: Set<Unicode.Scalar> = ["$", "€", "£", "¥"]

    /// Cleans `raw`; `nil` when what is left is not a decimal number (`"abc"`, `"NaN"`,
    /// `"0x10"`, `"1,5"`, `"1,2345"`).
    init?(_ raw: String) {
        var scalars = Array(raw.unicodeScalars)[...]
        var negative = false
        var signSeen = false
        var percent = false
        while let first = scalars.first {
            if first.properties.isWhitespace || NumericText.currencySymbols.contains(first) {
                scalars.removeFirst()
            } else if !signSeen, first == "-" || first == "\u{2212}" || first == "+" {
                negative = first != "+"
                signSeen = true
                scalars.removeFirst()
            } else {
                break
            }
        }
        while let last = scalars.last {
            if last.properties.isWhitespace || NumericText.currencySymbols.contains(last) {
                scalars.removeLast()
            } else if !percent, last == "%" {
                percent = true
                scalars.removeLast()
            } else {
                break
            }
        }
        guard let core = NumericText.normalizedCore(String(String.UnicodeScalarView(scalars)))
        else { return nil }
        text = (negative ? "-" : "") + core.text
        isPercent = percent
        isIntegerSyntax = core.isInteger
    }

    /// `digits[,ddd...][.digits][e[+-]digits]` without sign, normalized (commas removed, a
    /// missing integer part written as `0`); `nil` when the syntax does not match.
    private static func normalizedCore(_ core: String) -> (text: String, isInteger: Bool)? {
        func isDigits(_ part: Substring) -> Bool {
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }
        let exponentSplit = core.split(
            separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        let lowered =
            exponentSplit.count == 2
            ? exponentSplit
            : core.split(
                separator: "E", maxSplits: 1, omittingEmptySubsequences: false)
        guard let mantissa = lowered.first else { return nil }
        var exponent = ""
        if lowered.count == 2 {
            var digits = lowered[1]
            var sign = ""
            if let first = digits.first, first == "+" || first == "-" {
                sign = first == "-" ? "-" : ""
                digits = digits.dropFirst()
            }
            guard isDigits(digits) else { return nil }
            exponent = "e" + sign + digits
        }
        let pointSplit = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard pointSplit.count <= 2, let integerPart = pointSplit.first else { return nil }
        let fraction = pointSplit.count == 2 ? pointSplit[1] : ""
        guard fraction.isEmpty || isDigits(fraction) else { return nil }
        var integerDigits = ""
        if integerPart.contains(",") {
            let groups = integerPart.split(separator: ",", omittingEmptySubsequences: false)
            guard let head = groups.first, isDigits(head), head.count <= 3,
                groups.dropFirst().allSatisfy({ isDigits($0) && $0.count == 3 })
            else { return nil }
            integerDigits = groups.joined()
        } else {
            guard integerPart.isEmpty || isDigits(integerPart) else { return nil }
            integerDigits = String(integerPart)
        }
        guard !integerDigits.isEmpty || !fraction.isEmpty else { return nil }
        let text =
            (integerDigits.isEmpty ? "0" : integerDigits) + (fraction.isEmpty ? "" : "." + fraction)
            + exponent
        return (text, fraction.isEmpty && exponent.isEmpty)
    }
}

/// The lenient readers shared by ``LLMDecoding`` and ``LenientJSONDecoder``.
enum LenientScalar {
    /// The outcome of parsing number text as an integer type.
    enum IntegerParse<Integer> {
        case value(Integer, truncated: Bool)
        case outOfRange
    }

    /// Parses decimal number text as `Integer`, truncating a fraction toward zero.
    static func parseInteger<Integer: FixedWidthInteger>(
        _ text: String, as type: Integer.Type, isIntegerSyntax: Bool
    ) -> IntegerParse<Integer> {
        if let exact = Integer(text, radix: 10) { return .value(exact, truncated: false) }
        if isIntegerSyntax { return .outOfRange }
        guard let double = Double(text), double.isFinite else { return .outOfRange }
        let whole = double.rounded(.towardZero)
        guard let integer = Integer(exactly: whole) else { return .outOfRange }
        return .value(integer, truncated: whole != double)
    }

    /// Reads an integer: JSON numbers (fractions truncated), numeric strings.
    static func readInteger<Integer: FixedWidthInteger>(
        _ value: JSONValue, as type: Integer.Type
    ) -> ScalarReading<Integer> {
        switch value {
        case .number(let number):
            let text = number.text
            let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            switch parseInteger(text, as: type, isIntegerSyntax: isInteger) {
            case .value(let integer, let truncated):
                return truncated ? .coerced(integer, .floatTruncatedToInt) : .exact(integer)
            case .outOfRange: return .outOfRange
            }
        case .string(let text):
            if LenientReading.isNullWord(text) { return .nullWord }
            guard let numeric = NumericText(text) else { return .mismatch }
            switch parseInteger(numeric.text, as: type, isIntegerSyntax: numeric.isIntegerSyntax) {
            case .value(let integer, let truncated):
                return .coerced(integer, truncated ? .floatTruncatedToInt : .stringToNumber)
            case .outOfRange: return .outOfRange
            }
        case .null, .bool, .array, .object:
            return .mismatch
        }
    }

    /// Reads a finite double from a JSON number or a numeric string; the flag says whether the
    /// string ended in `%` (the value is not divided).
    static func readNumber(_ value: JSONValue) -> ScalarReading<(Double, isPercent: Bool)> {
        switch value {
        case .number(let number):
            let double = number.doubleValue
            return double.isFinite ? .exact((double, false)) : .outOfRange
        case .string(let text):
            if LenientReading.isNullWord(text) { return .nullWord }
            guard let numeric = NumericText(text) else { return .mismatch }
            guard let double = Double(numeric.text), double.isFinite else { return .outOfRange }
            return .coerced((double, numeric.isPercent), .stringToNumber)
        case .null, .bool, .array, .object:
            return .mismatch
        }
    }

    /// Reads a confidence as a fraction in `0...1` (``LLMDecoding/confidence(_:)`` and
    /// ``Confidence``): a string ending in `%` is divided by 100; otherwise a value above 1 is
    /// read as a percentage; the result is clamped to `0...1`. A value the rule changed is
    /// coerced as ``JSONCoercion/Kind/normalizedConfidence``; a numeric string it left alone,
    /// as ``JSONCoercion/Kind/stringToNumber``.
    static func readConfidence(_ value: JSONValue) -> ScalarReading<Double> {
        func fraction(_ number: Double, isPercent: Bool) -> Double {
            min(max(isPercent || number > 1 ? number / 100 : number, 0), 1)
        }
        switch readNumber(value) {
        case .exact(let number):
            let read = fraction(number.0, isPercent: number.isPercent)
            return read == number.0 ? .exact(read) : .coerced(read, .normalizedConfidence)
        case .coerced(let number, let kind):
            let read = fraction(number.0, isPercent: number.isPercent)
            return .coerced(read, read == number.0 && !number.isPercent ? kind : .normalizedConfidence)
        case .nullWord: return .nullWord
        case .outOfRange: return .outOfRange
        case .mismatch: return .mismatch
        }
    }

    /// Reads a finite `Double` (see ``readNumber(_:)``).
    static func readDouble(_ value: JSONValue) -> ScalarReading<Double> {
        switch readNumber(value) {
        case .exact(let number): .exact(number.0)
        case .coerced(let number, let kind): .coerced(number.0, kind)
        case .nullWord: .nullWord
        case .outOfRange: .outOfRange
        case .mismatch: .mismatch
        }
    }

    /// Reads a finite `Float`; values beyond `Float`'s range are out of range.
    static func readFloat(_ value: JSONValue) -> ScalarReading<Float> {
        switch readDouble(value) {
        case .exact(let double):
            Float(double).isFinite ? .exact(Float(double)) : .outOfRange
        case .coerced(let double, let kind):
            Float(double).isFinite ? .coerced(Float(double), kind) : .outOfRange
        case .nullWord: .nullWord
        case .outOfRange: .outOfRange
        case .mismatch: .mismatch
        }
    }

    /// Reads a `Decimal` from a JSON number or a numeric string.
    static func readDecimal(_ value: JSONValue) -> ScalarReading<Decimal> {
        let posix = Locale(identifier: "en_US_POSIX")
        switch value {
        case .number(let number):
            guard let decimal = Decimal(string: number.text, locale: posix), !decimal.isNaN else {
                return .outOfRange
            }
            return .exact(decimal)
        case .string(let text):
            if LenientReading.isNullWord(text) { return .nullWord }
            guard let numeric = NumericText(text) else { return .mismatch }
            guard let decimal = Decimal(string: numeric.text, locale: posix), !decimal.isNaN else {
                return .outOfRange
            }
            return .coerced(decimal, .stringToNumber)
        case .null, .bool, .array, .object:
            return .mismatch
        }
    }

    /// Reads a `Bool`: JSON booleans, the numbers 1 and 0, and the words in
    /// ``LenientReading/trueWords`` and ``LenientReading/falseWords`` in any case.
    static func readBool(_ value: JSONValue) -> ScalarReading<Bool> {
        switch value {
        case .bool(let flag):
            return .exact(flag)
        case .number(let number):
            guard let flag = LenientReading.bool(fromNumber: number) else { return .mismatch }
            return .coerced(flag, .numberToBool)
        case .string(let text):
            if LenientReading.isNullWord(text) { return .nullWord }
            guard let flag = LenientReading.bool(fromWord: text) else { return .mismatch }
            return .coerced(flag, .stringToBool)
        case .null, .array, .object:
            return .mismatch
        }
    }

    /// Reads a `String`: strings as they are (null words included; callers decide), numbers as
    /// their literal text, booleans as `true`/`false`.
    static func readString(_ value: JSONValue) -> ScalarReading<String> {
        switch value {
        case .string(let text): .exact(text)
        case .number(let number): .coerced(number.text, .numberToString)
        case .bool(let flag): .coerced(flag ? "true" : "false", .boolToString)
        case .null, .array, .object: .mismatch
        }
    }

    /// The items of a comma-separated list: trimmed, empty items and null words dropped.
    static func commaSeparatedItems(_ text: String) -> [String] {
        LenientReading.listItems(text)
    }
}
