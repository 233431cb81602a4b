/// An object whose opening `{` was lost (`"a": 1, "b": 2}`): the text, trimmed, starts with a
/// quoted key and its `:` and ends with `}`.
extension LLMJSONExtractor {
    /// The object read from `region` with a `{` put back before it, or `nil` when the region
    /// does not have that shape or does not parse to its last `}`. Offsets point into `bytes`.
    func objectMissingItsBrace(
        _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> ExtractedJSON? {
        guard let first = Self.firstNonBlank(bytes, region), bytes[first] == ASCII.quote,
            let last = region.last(where: { !ASCII.isWhitespace(bytes[$0]) }),
            bytes[last] == ASCII.closeBrace,
            last > first
        else { return nil }
        // The first key and its `:`.
        var cursor = first + 1
        while cursor < last, bytes[cursor] != ASCII.quote, bytes[cursor] != ASCII.newline { cursor += 1 }
        cursor += 1
        while cursor < last, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        guard cursor < last, bytes[cursor] == ASCII.colon else { return nil }
        let plain = [ASCII.openBrace] + UnsafeBufferPointer(rebasing: bytes[first...last])
        return plain.withUnsafeBufferPointer { inner -> ExtractedJSON? in
            var parser = lenientParser(inner, 0, inner.count)
            // The whole text must be the object, of JSON tokens (prose such as
            // `"Note": see {x}` has words, not values).
            guard let text = try? parser.parseValue(), parser.position == inner.count, parser.evidence >= 2,
                !parser.repairs.contains(where: { $0.kind == .closedBracket || $0.kind == .quotedBareWord })
            else { return nil }
            var repairs = [JSONRepair.make(.insertedOpeningBrace, at: first, "put back the missing '{'")]
            for repair in parser.repairs {
                let suffix = " at offset \(repair.offset)"
                let what =
                    repair.description.hasSuffix(suffix)
                    ? String(repair.description.dropLast(suffix.count)) : repair.description
                repairs.append(.make(repair.kind, at: first + max(0, repair.offset - 1), what))
            }
            return ExtractedJSON(text: text, range: first..<last + 1, repairs: repairs)
        }
    }
}
