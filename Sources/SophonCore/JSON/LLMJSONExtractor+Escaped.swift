/// JSON written escaped, as it appears inside a JSON string (`{\"a\": 1}`): a model that
/// returned the string form of its answer, or an answer quoted whole (`"{\"a\": 1}"`).
extension LLMJSONExtractor {
    /// Unescapes the text from the bracket at `start` up to the first unescaped `"` (the end of
    /// the string holding it) or `end`, and parses that leniently. Offsets in the result and
    /// its repairs point into the original text. Each byte read spends one unit of `budget`;
    /// when it runs out the candidate fails (so repeated escaped brackets stay linear). On
    /// failure `evidence` holds the JSON tokens read.
    func parseEscaped(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, budget: inout Int, evidence: inout Int
    ) throws(JSONParseFailure) -> Candidate {
        var plain: [UInt8] = []
        // Where `plain` falls one more byte behind `bytes`: after each two-byte escape read as
        // one byte, the index in `plain` of the byte after it (4 bytes per escape, not per byte).
        var shifts: [UInt32] = []
        var cursor = start
        while cursor < end, bytes[cursor] != ASCII.quote {
            guard budget > 0, cursor < UInt32.max else {
                throw .syntax(offset: start + 1, message: "escaped JSON too costly to search again")
            }
            budget -= 1
            let byte = bytes[cursor]
            guard byte == ASCII.backslash, cursor + 1 < end else {
                plain.append(byte)
                cursor += 1
                continue
            }
            switch bytes[cursor + 1] {
            case ASCII.quote, ASCII.backslash, ASCII.slash: plain.append(bytes[cursor + 1])
            case UInt8(ascii: "n"): plain.append(ASCII.newline)
            case UInt8(ascii: "t"): plain.append(ASCII.tab)
            case UInt8(ascii: "r"): plain.append(ASCII.carriageReturn)
            default:
                // Not an escape of the JSON around it: both bytes are kept as they are.
                plain.append(byte)
                plain.append(bytes[cursor + 1])
                cursor += 2
                continue
            }
            shifts.append(UInt32(plain.count))
            cursor += 2
        }
        let stop = min(cursor, end)
        /// The offset in `bytes` of the byte at `offset` in `plain` (`stop` past its end).
        func original(_ offset: Int) -> Int {
            guard offset < plain.count else { return stop }
            // Shifts at or before `offset`: a binary search for the first one after it.
            var low = 0
            var high = shifts.count
            while low < high {
                let middle = (low + high) / 2
                if Int(shifts[middle]) <= offset { low = middle + 1 } else { high = middle }
            }
            return start + offset + low
        }
        var innerEvidence = 0
        defer { evidence = innerEvidence }
        let result: Result<Candidate, JSONParseFailure> = plain.withUnsafeBufferPointer { inner in
            var parser = lenientParser(inner, 0, inner.count)
            do throws(JSONParseFailure) {
                let text = try parser.parseValue()
                var repairs = [
                    JSONRepair.make(.unescapedEmbeddedJSON, at: start, "read the escaped JSON as JSON")
                ]
                for repair in parser.repairs {
                    let offset = original(repair.offset)
                    let suffix = " at offset \(repair.offset)"
                    let what =
                        repair.description.hasSuffix(suffix)
                        ? String(repair.description.dropLast(suffix.count)) : repair.description
                    repairs.append(.make(repair.kind, at: offset, what))
                }
                let range = start..<max(start + 1, original(parser.position))
                return .success(
                    Candidate(text: text, range: range, repairs: repairs, evidence: parser.evidence))
            } catch {
                innerEvidence = parser.evidence
                switch error {
                case .syntax(let offset, let message):
                    return .failure(.syntax(offset: original(offset), message: message))
                case .tooDeep(let offset, let limit):
                    return .failure(.tooDeep(offset: original(offset), limit: limit))
                case .runawayNumber(let offset, let length):
                    return .failure(.runawayNumber(offset: original(offset), length: length))
                case .runawayEscape(let offset, let length):
                    return .failure(.runawayEscape(offset: original(offset), length: length))
                }
            }
        }
        return try result.get()
    }
}
