/// Finds the JSON values in raw model text and repairs what models commonly break.
///
/// The text is read as UTF-8 bytes in linear time:
/// 1. Fenced Markdown blocks (opened by three backticks or `~~~`, with `json`, no tag or any JSON-like
///    language tag) are searched first, each on its own; values from several blocks are all returned,
///    in order, never merged. When no block yields a value, the text outside code blocks in
///    other languages (a `python` block) is searched, then, as a last resort, everything.
/// 2. Within a block (or the text), every `{` or `[` outside a found value starts a candidate,
///    parsed with strings and escapes honoured (brackets and quotes inside strings do not
///    count). A candidate that does not parse even with repairs (`[Thinking]`,
///    `the field {x} is in pixels`) is skipped; brackets it read inside a string it wrongly
///    opened are tried again within a linear budget, and when it was JSON (broken beyond
///    repair) nothing nested in it is returned. Several values in a row (NDJSON,
///    concatenated values) are each returned. Bracketed prose (`{Note: see below}`, the `[1]`
///    of `See [1].`) is dropped when a real value is also present.
/// 3. Repairs (see ``JSONRepair/Kind``): truncation at the end of the block or text (a
///    dangling string is closed and loses the whitespace the cut left, a cut escape, number or
///    literal is dropped or completed, an incomplete member dropped — never given an invented
///    value —, a trailing comma removed, open brackets closed innermost first); trailing and
///    missing commas, missing colons, mismatched and stray closers; `//`, `/* */` and `#`
///    comments; single and typographic quotes; unquoted keys (kept as written: `$ref`, `_id`)
///    and word values (`active`, `12px`, `#fff`); Python tuples inside a value (`(1, 2)` as
///    `[1, 2]`); Python `True`/`False`/`None`, `undefined`,
///    `NULL`, `nil`; unescaped quotes, newlines and tabs inside strings; invalid escapes;
///    escaped JSON (`{\"a\": 1}`); `...` placeholders; `+1`, `.5` (and `007` kept as the
///    string `"007"`); a string or key that lost its closing quote before `, "next":` or `:`.
///    `NaN` and `Infinity` become `null`, so the result is always strict JSON. Each repair is
///    recorded with its byte offset.
/// 4. Refusals: text with nothing recoverable, a number longer than
///    ``Options/maxNumberLength`` or a run of escapes longer than
///    ``Options/maxEscapeRunLength`` (a model caught in a loop) fail with a typed error.
///
/// A block or text that is an object without its opening `{` (`"a": 1, "b": 2}`: it starts
/// with a quoted key and its `:` and ends with `}`) is read with the brace put back.
///
/// A reply cut right after its opening bracket or inside its first key (`{`, `{"ti`, `[`) is
/// read as the empty container, with the repairs that say so; a bare `{` or `[` after prose
/// (`Sure! [`) is not a value. Scalars (`42`, `"text"`) are not searched for in prose: they are returned only
/// when a fenced block (or the whole text) is exactly one strict JSON scalar.
public struct LLMJSONExtractor: Sendable {
    /// Limits for the extractor.
    public struct Options: Sendable, Hashable {
        /// Deepest nesting of objects and arrays accepted; deeper text fails with
        /// ``LLMJSONExtractionError/tooDeep(offset:limit:)``. Default 512.
        public var maxDepth: Int
        /// Longest number accepted, in bytes (sign, digits, `.`, exponent); a longer one fails
        /// with ``LLMJSONExtractionError/runawayNumber(offset:length:)``. Default 256: far
        /// past any real value (a `Double` needs 17 significant digits) and short of what a
        /// model stuck repeating a digit writes.
        public var maxNumberLength: Int
        /// Longest run of consecutive escape sequences accepted inside a string, in bytes; a
        /// longer one fails with ``LLMJSONExtractionError/runawayEscape(offset:length:)``.
        /// Default 1,000.
        public var maxEscapeRunLength: Int

        /// Creates options.
        /// - Parameters:
        ///   - maxDepth: deepest nesting accepted (at least 1); default 512.
        ///   - maxNumberLength: longest number accepted, in bytes (at least 1); default 256.
        ///   - maxEscapeRunLength: longest run of escapes accepted, in bytes (at least 2);
        ///     default 1,000.
        public init(maxDepth: Int = 512, maxNumberLength: Int = 256, maxEscapeRunLength: Int = 1_000) {
            self.maxDepth = max(1, maxDepth)
            self.maxNumberLength = max(1, maxNumberLength)
            self.maxEscapeRunLength = max(2, maxEscapeRunLength)
        }
    }

    /// The limits in use.
    public var options: Options
    /// Called from time to time while the input is read (see
    /// ``extract(fromUTF8:releasingInput:)``); `nil` for ``extract(from:)``.
    var releaseInput: (@Sendable () -> Void)?

    /// An extractor with default options (nesting up to 512 levels).
    public init() { options = Options() }

    /// An extractor with the given options.
    /// - Parameter options: limits such as ``Options/maxDepth``.
    public init(options: Options) { self.options = options }

    /// Every JSON value found in `text`, in order, each with its position and the repairs made.
    /// - Parameter text: raw model output.
    /// - Returns: at least one value; ranges are UTF-8 byte offsets in `text`, increasing.
    /// - Throws: ``LLMJSONExtractionError/noJSONFound`` when nothing is recoverable (empty,
    ///   blank or prose-only text); ``LLMJSONExtractionError/tooDeep(offset:limit:)`` when a
    ///   candidate nests deeper than ``Options/maxDepth``;
    ///   ``LLMJSONExtractionError/runawayNumber(offset:length:)`` and
    ///   ``LLMJSONExtractionError/runawayEscape(offset:length:)`` past the length limits.
    public func extract(from text: String) throws(LLMJSONExtractionError) -> [ExtractedJSON] {
        var text = text
        let result: Result<[ExtractedJSON], LLMJSONExtractionError> = text.withUTF8 { bytes in
            do throws(LLMJSONExtractionError) {
                return .success(try search(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Every JSON value found in the UTF-8 bytes of a text, as ``extract(from:)`` finds them
    /// in the same text, without the text being copied into a `String` first (a large file
    /// mapped into memory, issue 20).
    ///
    /// `releaseInput` is called from time to time while the bytes are read: after each MiB
    /// of the first pass over them (the search for fenced blocks) and each time 64 KiB of a
    /// value's text is written. The extractor may read any byte again after a call, so the
    /// caller may only give back memory it can bring back unchanged, such as the resident
    /// pages of a read-only file mapping (`madvise(MADV_DONTNEED)`): then a large input need
    /// not stay resident while it is read once.
    /// - Parameters:
    ///   - bytes: well-formed UTF-8 (``UTF8Validator/isValid(_:)``); other bytes give
    ///     undefined values but never a trap.
    ///   - releaseInput: called on the calling thread, never after this returns.
    /// - Returns: at least one value; ranges are offsets in `bytes`.
    /// - Throws: the errors of ``extract(from:)``.
    public func extract(
        fromUTF8 bytes: UnsafeBufferPointer<UInt8>, releasingInput releaseInput: (@Sendable () -> Void)? = nil
    ) throws(LLMJSONExtractionError) -> [ExtractedJSON] {
        var extractor = self
        extractor.releaseInput = releaseInput
        return try extractor.search(bytes)
    }

    /// The first JSON value found in `text`: the first element of ``extract(from:)``, with the
    /// same repairs.
    /// - Parameter text: raw model output.
    /// - Returns: the first value, its UTF-8 byte range and its repairs.
    /// - Throws: the errors of ``extract(from:)``.
    public func extractFirst(from text: String) throws(LLMJSONExtractionError) -> ExtractedJSON {
        guard let first = try extract(from: text).first else { throw .noJSONFound }
        return first
    }

    /// Fenced blocks that may hold JSON, else the text around code in other languages, else
    /// everything; then a whole-text scalar.
    private func search(_ bytes: UnsafeBufferPointer<UInt8>) throws(LLMJSONExtractionError) -> [ExtractedJSON]
    {
        var found: [ExtractedJSON] = []
        let blocks = MarkdownFenceScanner.blocks(in: bytes, releasing: releaseInput)
        for block in blocks where block.mayHoldJSON {
            var values = try scanRegion(bytes, block.content)
            if values.isEmpty, let scalar = Self.wholeScalar(bytes, block.content) {
                values = [scalar]
            }
            let fence = JSONRepair.make(
                .strippedFence, at: block.fenceOffset, "took the value from the fenced block")
            for index in values.indices { values[index].repairs.insert(fence, at: 0) }
            found += values
        }
        if found.isEmpty {
            // The text around code blocks in other languages (`python`), then everything.
            var start = 0
            for block in blocks where !block.mayHoldJSON {
                found += try scanRegion(bytes, start..<max(start, block.extent.lowerBound))
                start = max(start, block.extent.upperBound)
            }
            found += try scanRegion(bytes, start..<bytes.count)
        }
        if found.isEmpty, blocks.contains(where: { !$0.mayHoldJSON }) {
            found = try scanRegion(bytes, 0..<bytes.count)
        }
        if found.isEmpty, let scalar = Self.wholeScalar(bytes, 0..<bytes.count) { found = [scalar] }

        guard !found.isEmpty else { throw .noJSONFound }
        return found
    }

    /// The values in `region`: an object that lost its `{` when the region has that shape
    /// (``objectMissingItsBrace(_:_:)``), else what ``scan(_:_:)`` finds.
    private func scanRegion(
        _ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>
    ) throws(LLMJSONExtractionError) -> [ExtractedJSON] {
        if let object = objectMissingItsBrace(bytes, region) { return [object] }
        return try scan(bytes, region)
    }

    /// The strict JSON scalar (`"text"`, `42`, `true`, `null`) that is all of `region` but
    /// surrounding whitespace, else `nil`. No repairs here, so prose is never read as a value.
    static func wholeScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ region: Range<Int>)
        -> ExtractedJSON?
    {
        guard let start = firstNonBlank(bytes, region), bytes[start] != ASCII.openBrace,
            bytes[start] != ASCII.openBracket
        else { return nil }
        var parser = JSONByteParser(
            bytes: bytes, start: start, end: region.upperBound, mode: .strict, maxDepth: 1,
            builder: JSONTextBuilder())
        guard let text = try? parser.parseValue() else { return nil }
        let valueEnd = parser.position
        guard (try? parser.skipInsignificant()) != nil, parser.position == region.upperBound else {
            return nil
        }
        return ExtractedJSON(text: text, range: start..<valueEnd, repairs: [])
    }

    static func firstNonBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        range.first { !ASCII.isWhitespace(bytes[$0]) }
    }
}

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
                case .endOfInput(let offset, let message):
                    return .failure(.endOfInput(offset: original(offset), message: message))
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
