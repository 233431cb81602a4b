import SophonCore

/// Fuzz target `extractor`: `LLMJSONExtractor` on arbitrary model text.
///
/// Invariants beyond "no crash, no hang": every value printed compactly or pretty is strict
/// JSON that parses back to the same value; ranges are increasing and inside the text; every
/// repair offset is inside the text.
enum ExtractorFuzz {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        // A small depth limit now and then, so the limit's error path is reached too.
        let depth = input.byte() & 0x0F == 0 ? 8 : 512
        let text = input.text
        let length = text.utf8.count
        let extractor = LLMJSONExtractor(options: .init(maxDepth: depth))
        let found: [ExtractedJSON]
        do {
            found = try extractor.extract(from: text)
        } catch {
            _ = error.description
            return
        }
        fuzzRequire(!found.isEmpty, "extract returned no value and no error")
        var previousEnd = 0
        for item in found {
            fuzzRequire(
                item.range.lowerBound >= previousEnd && item.range.upperBound <= length,
                "range \(item.range) after \(previousEnd) in \(length) bytes")
            previousEnd = item.range.upperBound
            for repair in item.repairs {
                fuzzRequire(repair.offset >= 0 && repair.offset <= length, "repair offset \(repair.offset)")
                _ = repair.description
            }
            let compact = item.value.compactText
            fuzzRequire(
                (try? JSONValue(parsing: compact)) == item.value, "compact text is not strict: \(compact)")
            let pretty = item.value.prettyText
            fuzzRequire(
                (try? JSONValue(parsing: pretty)) == item.value, "pretty text is not strict: \(pretty)")
        }
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ExtractorFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
