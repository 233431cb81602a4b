// Shared by every harness: compiled into each fuzz binary beside its harness file.

/// Stops the run when an invariant of the code under test does not hold: libFuzzer then
/// saves the input as a crash, like any trap.
/// - Parameters:
///   - condition: the invariant.
///   - message: what went wrong, printed with the crash.
func fuzzRequire(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant failed: \(message())") }
}

/// Reads a fuzz input piece by piece: a few leading bytes steer the harness (which type to
/// decode, where to split), the rest is the text under test.
struct FuzzInput {
    /// The bytes not consumed yet.
    private(set) var rest: ArraySlice<UInt8>

    /// Wraps the input.
    init(_ bytes: [UInt8]) { rest = bytes[...] }

    /// The next byte, or 0 when the input is used up.
    mutating func byte() -> UInt8 {
        guard let first = rest.first else { return 0 }
        rest = rest.dropFirst()
        return first
    }

    /// The remaining bytes as text (invalid UTF-8 replaced by U+FFFD, as the product reads
    /// files and network bodies).
    var text: String { String(decoding: rest, as: UTF8.self) }
}
