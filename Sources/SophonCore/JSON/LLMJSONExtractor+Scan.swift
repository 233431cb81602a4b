/// Finding candidate values in a region of the text: which brackets start one, what to do
/// when one fails, and which found values are prose in brackets.
extension LLMJSONExtractor {
    /// One value parsed from a candidate bracket.
    struct Candidate {
        /// The value as compact JSON text (see ``JSONTextBuilder``).
        var text: String
        var range: Range<Int>
        var repairs: [JSONRepair]
        /// Tokens only JSON would write (quoted strings, numbers, literals).
        var evidence: Int
    }

    /// What a candidate had read when it failed.
    struct FailedRead {
        /// JSON tokens read before the failure (see ``JSONByteParser/evidence``).
        var evidence = 0
        /// The strings read, when asked for.
        var strings: [Range<Int>] = []
    }

    /// The values in `region`, with the prose skipped around them.
    ///
    /// Every `{` or `[` that ``JSONByteParser/canOpenContainer(at:in:end:)`` accepts starts a
    /// candidate. When one fails at offset F:
    /// - the brackets it read inside its strings before F (a string it wrongly opened, as in
    ///   `He said ["hi] and {"a": 1}`) are tried again, and one is kept when its value reaches
    ///   past F;
    /// - else, when the failed candidate was JSON (it read a JSON token, or holds a `:` of its
    ///   own), nothing inside it is data: the search goes on after its closing bracket (or
    ///   stops at the end of the region), so a broken value never yields its nested parts;
    /// - else (prose in brackets, `{ not json {"a": 1} }`) the search goes on from F.
    /// The retries, and the unescaping of escaped JSON candidates, each spend a budget of twice
    /// the region's length, so the search stays linear.
    func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) throws(LLMJSONExtractionError) -> [ExtractedJSON] {
        var candidates: [Candidate] = []
        var cursor = region.lowerBound
        var budget = 2 * region.count + 4_096
        var unescapeBudget = budget
        var extentBudget = budget
        while cursor < region.upperBound {
            let byte = bytes[cursor]
            guard byte == ASCII.openBrace || byte == ASCII.openBracket,
                JSONCandidateStart.canOpenContainer(at: cursor, in: bytes, end: region.upperBound)
                    || Self.opensRegion(cursor, bytes, region)
            else {
                cursor += 1
                continue
            }
            let start = cursor
            var failed = FailedRead()
            do throws(JSONParseFailure) {
                let candidate = try parseCandidate(bytes, start, region.upperBound, &unescapeBudget, &failed)
                cursor = max(candidate.range.upperBound, start + 1)
                if !Self.isNothing(candidate) || Self.isCutReply(candidate, bytes, region) {
                    candidates.append(candidate)
                }
            } catch {
                let failure: Int
                switch error {
                case .tooDeep(let offset, let limit): throw .tooDeep(offset: offset, limit: limit)
                case .runawayNumber(let offset, let length):
                    throw .runawayNumber(offset: offset, length: length)
                case .runawayEscape(let offset, let length):
                    throw .runawayEscape(offset: offset, length: length)
                case .syntax(let offset, _), .endOfInput(let offset, _): failure = max(offset, start + 1)
                }
                if failed.evidence > 0,  // Else it read no string: nothing to retry.
                    let nested = retry(
                        bytes, start, failure, region.upperBound, budget: &budget,
                        unescapeBudget: &unescapeBudget
                    )
                {
                    candidates.append(nested)
                    cursor = nested.range.upperBound
                    continue
                }
                if let extent = Self.extent(of: start, in: bytes, region, budget: &extentBudget) {
                    let wasJSON = failed.evidence > 0 || extent.colons > 0
                    cursor = wasJSON ? max(failure, extent.end) : failure
                } else {
                    // Budget spent (pathological input): stay safe, never return nested parts.
                    cursor = failed.evidence > 0 ? region.upperBound : failure
                }
            }
        }
        if candidates.contains(where: { !Self.isProse($0, bytes, region) }) {
            candidates.removeAll { Self.isProse($0, bytes, region) }
        }
        return Self.located(candidates, bytes, region)
    }

    /// The first candidate starting inside a string that the failed candidate at `start` read
    /// before `failure`, whose value reaches past `failure`.
    private func retry(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ failure: Int, _ end: Int, budget: inout Int,
        unescapeBudget: inout Int
    ) -> Candidate? {
        guard budget > 0 else { return nil }
        budget -= failure - start
        var failed = FailedRead()
        guard (try? parseCandidate(bytes, start, end, &unescapeBudget, &failed, recordStrings: true)) == nil
        else { return nil }
        for string in failed.strings where string.lowerBound < failure {
            for offset in string.clamped(to: start + 1..<failure) where budget > 0 {
                let byte = bytes[offset]
                guard byte == ASCII.openBrace || byte == ASCII.openBracket,
                    JSONCandidateStart.canOpenContainer(at: offset, in: bytes, end: end)
                else { continue }
                var ignored = FailedRead()
                do throws(JSONParseFailure) {
                    let candidate = try parseCandidate(bytes, offset, end, &unescapeBudget, &ignored)
                    budget -= candidate.range.count
                    if candidate.range.upperBound > failure, !Self.isNothing(candidate) { return candidate }
                } catch {
                    switch error {
                    case .syntax(let at, _), .endOfInput(let at, _): budget -= max(1, at - offset)
                    default: budget -= 1
                    }
                }
            }
        }
        return nil
    }

    /// Parses the candidate whose bracket is at `start`; escaped JSON spends `unescapeBudget`.
    /// On failure `failed` holds what was read (the strings only when `recordStrings`).
    func parseCandidate(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ unescapeBudget: inout Int,
        _ failed: inout FailedRead, recordStrings: Bool = false
    ) throws(JSONParseFailure) -> Candidate {
        if JSONCandidateStart.escapedJSONStart(after: start, in: bytes, end: end) {
            return try parseEscaped(bytes, start, end, budget: &unescapeBudget, evidence: &failed.evidence)
        }
        var parser = lenientParser(bytes, start, end)
        if recordStrings { parser.stringRanges = [] }
        do throws(JSONParseFailure) {
            let text = try parser.parseValue()
            return Candidate(
                text: text, range: start..<parser.position, repairs: parser.repairs, evidence: parser.evidence
            )
        } catch {
            failed.evidence = parser.evidence
            failed.strings = parser.stringRanges ?? []
            throw error
        }
    }

    /// A lenient parser with these options that writes compact JSON text, over `bytes` from
    /// `start` to `end`.
    func lenientParser(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> JSONByteParser<JSONTextBuilder> {
        var parser = JSONByteParser(
            bytes: bytes, start: start, end: end, mode: .lenient, maxDepth: options.maxDepth,
            builder: JSONTextBuilder())
        parser.maxNumberLength = options.maxNumberLength
        parser.maxEscapeRunLength = options.maxEscapeRunLength
        parser.builder.sizeHint = end - start
        parser.builder.onFlush = releaseInput
        return parser
    }

    /// Where a bracket's container ends and how many `:` it holds at its own level.
    struct BracketExtent {
        /// Just after the matching closer, or the end of the region when none.
        var end: Int
        var colons: Int
    }

    /// The extent of the container opened at `start`, by a quick pass that honours `"`
    /// strings (ended by a newline too, so a stray quote in prose spoils one line at most) and
    /// pairs closers with the latest opener of either kind; `nil` when `budget` (bytes to
    /// read, shared by all calls) runs out first.
    static func extent(
        of start: Int, in bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>, budget: inout Int
    ) -> BracketExtent? {
        var depth = 0
        var colons = 0
        var inString = false
        var cursor = start
        while cursor < region.upperBound {
            budget -= 1
            guard budget > 0 else { return nil }
            let byte = bytes[cursor]
            if inString {
                if byte == ASCII.backslash {
                    cursor += 2
                    continue
                }
                if byte == ASCII.quote || byte == ASCII.newline { inString = false }
            } else {
                switch byte {
                case ASCII.quote: inString = true
                case ASCII.openBrace, ASCII.openBracket: depth += 1
                case ASCII.closeBrace, ASCII.closeBracket:
                    depth -= 1
                    if depth == 0 { return BracketExtent(end: cursor + 1, colons: colons) }
                case ASCII.colon where depth == 1: colons += 1
                default: break
                }
            }
            cursor += 1
        }
        return BracketExtent(end: region.upperBound, colons: colons)
    }

    /// Whether only whitespace comes before `offset` in `region`: a bracket there opens the
    /// reply (or its fenced block), so even cut right after it (`{`, `{"ti`) it is the reply's
    /// value, recovered as `{}` with its repairs, not prose.
    private static func opensRegion(
        _ offset: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> Bool {
        var cursor = region.lowerBound
        while cursor < offset, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        return cursor == offset
    }

    /// Whether an empty candidate is a reply cut before its first member or element was read:
    /// it opens the region, the end of the region cut it before any `:` (right after the
    /// bracket, or inside the first key: `{"ti`), and it was only closed (no other repair, so a
    /// broken value such as `{"a" == 1}` stays refused).
    private static func isCutReply(
        _ candidate: Candidate, _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> Bool {
        let closing: Set<JSONRepair.Kind> = [
            .closedBracket, .closedString, .droppedIncompleteEscape, .droppedIncompleteMember,
        ]
        guard opensRegion(candidate.range.lowerBound, bytes, region),
            candidate.repairs.allSatisfy({ closing.contains($0.kind) })
        else { return false }
        return !(candidate.range.lowerBound..<region.upperBound).contains { bytes[$0] == ASCII.colon }
    }

    /// A value that recovered nothing: a lone `{` or `[` closed by the end of the text, or a
    /// container holding only a `...` placeholder. Kept when it is a cut reply
    /// (``isCutReply(_:_:_:)``).
    private static func isNothing(_ candidate: Candidate) -> Bool {
        guard candidate.text == "[]" || candidate.text == "{}" else { return false }
        return candidate.repairs.contains {
            ($0.kind == .closedBracket && $0.offset == candidate.range.lowerBound)
                || $0.kind == .removedEllipsis
        }
    }

    /// Whether a candidate is prose in brackets (`{Note: see below}`, the `[1]` of `See [1].`,
    /// a `{ }` in a sentence): no JSON token but words, or at most one token and text beside
    /// it on its line. Such values are dropped when the region also holds a real value.
    private static func isProse(
        _ candidate: Candidate, _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> Bool {
        let hasWords = candidate.repairs.contains { $0.kind == .quotedKey || $0.kind == .quotedBareWord }
        if candidate.evidence == 0, hasWords { return true }
        guard candidate.evidence <= 1 else { return false }
        return !isAloneOnItsLines(candidate.range, bytes, region)
    }

    /// Whether only whitespace shares the first line of `range` before it and its last line
    /// after it.
    private static func isAloneOnItsLines(
        _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> Bool {
        var before = range.lowerBound - 1
        while before >= region.lowerBound, bytes[before] != ASCII.newline {
            guard ASCII.isWhitespace(bytes[before]) else { return false }
            before -= 1
        }
        var after = range.upperBound
        while after < region.upperBound, bytes[after] != ASCII.newline {
            guard ASCII.isWhitespace(bytes[after]) else { return false }
            after += 1
        }
        return true
    }

    /// The candidates as results, each with the prose skipped before it (and after the last).
    private static func located(
        _ candidates: [Candidate], _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) -> [ExtractedJSON] {
        var found: [ExtractedJSON] = []
        var proseStart = region.lowerBound
        for candidate in candidates {
            var repairs: [JSONRepair] = []
            if let prose = firstNonBlank(bytes, proseStart..<candidate.range.lowerBound) {
                repairs.append(.make(.skippedProse, at: prose, "skipped the text before the value"))
            }
            repairs += candidate.repairs
            found.append(ExtractedJSON(text: candidate.text, range: candidate.range, repairs: repairs))
            proseStart = candidate.range.upperBound
        }
        if !found.isEmpty, let prose = firstNonBlank(bytes, proseStart..<region.upperBound) {
            found[found.count - 1].repairs.append(
                .make(.skippedProse, at: prose, "skipped the text after the value"))
        }
        return found
    }
}
