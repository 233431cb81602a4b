extension UTF8Validator {
    /// Where a byte sequence stops being UTF-8: the 1-based line (lines end at `\n`) and how many
    /// Unicode scalars precede the first invalid sequence on that line.
    public struct Place: Sendable, Hashable {
        /// The 1-based line of the first invalid sequence.
        public var line: Int
        /// The Unicode scalars before it on its line (so its 1-based scalar column is this + 1).
        public var scalarsBefore: Int

        /// A place from its parts.
        public init(line: Int, scalarsBefore: Int) {
            self.line = line
            self.scalarsBefore = scalarsBefore
        }
    }

    /// The place of the first sequence of `bytes` that is not well-formed UTF-8, `nil` when all
    /// of it is (an empty sequence is). The one rule by which a script line and a prompt file
    /// report invalid UTF-8 at its line and column (docs/language.md, docs/prompts.md).
    public static func firstInvalid(in bytes: some Sequence<UInt8>) -> Place? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var place = Place(line: 1, scalarsBefore: 0)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if Unicode.UTF8.decode(encoded) == "\n" {
                    place.line += 1
                    place.scalarsBefore = 0
                } else {
                    place.scalarsBefore += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return place
            }
        }
    }
}
