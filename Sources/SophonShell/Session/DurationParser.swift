/// Parses the shell's durations: `500ms`, `0.8s`, `6s`, `2m`, `1h`; a bare number is seconds
/// (docs/library.md, "Retry policies", `retry-policy` values and `sleep`).
enum DurationParser {
    /// The duration `text` denotes, or `nil` when it is not a non-negative finite duration.
    static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite
        else { return nil }
        let seconds = value * scale
        guard seconds <= 365 * 24 * 3600 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Shortest readable form: `500ms`, `0.8s`, `6s`, `2m`.
    static func format(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        let seconds = Double(milliseconds) / 1000
        return "\(seconds)s"
    }
}
