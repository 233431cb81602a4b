/// A JSON number literal as an exact decimal, for comparisons that neither round
/// (`12345678901234567890` vs `12345678901234567891`) nor overflow (`1e400`).
///
/// The value is `sign × 0.digits × 10^pointPosition`, digits without leading or trailing zeros;
/// zero has no digits and compares equal to `-0`. The one home of number comparison: `expect`
/// and tape replay both compare through ``JSONNumber/compare(_:)``.
struct DecimalLiteral: Sendable, Equatable {
    private let negative: Bool
    private let digits: [UInt8]
    private let pointPosition: Int

    /// Reads `text` when it is JSON number syntax (RFC 8259), else `nil`.
    init?(_ text: String) {
        guard JSONNumber.isValidSyntax(text) else { return nil }
        var scalars = text.unicodeScalars[...]
        let negative = scalars.first == "-"
        if negative { scalars.removeFirst() }
        var digits: [UInt8] = []
        var integerCount = 0
        var inFraction = false
        var exponentText = ""
        var inExponent = false
        for scalar in scalars {
            if inExponent {
                exponentText.unicodeScalars.append(scalar)
            } else if scalar == "." {
                inFraction = true
            } else if scalar == "e" || scalar == "E" {
                inExponent = true
            } else {
                digits.append(UInt8(scalar.value - 48))
                if !inFraction { integerCount += 1 }
            }
        }
        // Exponents beyond ±2^60 are clamped: such numbers are infinite or zero for any purpose.
        let limit = 1 << 60
        let exponent =
            Int(exponentText).map { max(-limit, min(limit, $0)) }
            ?? (exponentText.hasPrefix("-") ? -limit : exponentText.isEmpty ? 0 : limit)
        var point = integerCount + exponent
        while digits.first == 0 {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.pointPosition = digits.isEmpty ? 0 : point
    }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    func compare(_ other: DecimalLiteral) -> Int {
        if negative != other.negative { return negative ? -1 : 1 }
        let magnitude = compareMagnitude(other)
        return negative ? -magnitude : magnitude
    }

    private func compareMagnitude(_ other: DecimalLiteral) -> Int {
        if digits.isEmpty || other.digits.isEmpty {
            return digits.isEmpty ? (other.digits.isEmpty ? 0 : -1) : 1
        }
        if pointPosition != other.pointPosition { return pointPosition < other.pointPosition ? -1 : 1 }
        for (a, b) in zip(digits, other.digits) where a != b { return a < b ? -1 : 1 }
        if digits.count == other.digits.count { return 0 }
        return digits.count < other.digits.count ? -1 : 1
    }
}
