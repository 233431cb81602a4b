import SophonCore

/// Fuzz target `json-parse`: the strict parser `JSONValue(parsing:)`.
///
/// Invariants: an error's location is inside the text (line and column from 1, offset within
/// the bytes); a parsed value prints compactly and pretty as text that parses back to itself;
/// the extractor accepts anything the strict parser accepts as an object or array, unchanged.
enum JSONParseFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            let length = text.utf8.count
            fuzzRequire(
                error.offset >= 0 && error.offset <= length && error.line >= 1 && error.column >= 1,
                "bad error location \(error.offset) \(error.line):\(error.column) in \(length) bytes")
            _ = "\(error)"
            return
        }
        fuzzRequire((try? JSONValue(parsing: value.compactText)) == value, "compact round trip")
        fuzzRequire((try? JSONValue(parsing: value.prettyText)) == value, "pretty round trip")
        // A fence inside a string is searched first by design, so only fence-free text is
        // held to the extractor check.
        guard !text.contains("```"), !text.contains("~~~") else { return }
        switch value {
        case .array, .object:
            let extracted: [ExtractedJSON]?
            do {
                extracted = try LLMJSONExtractor().extract(from: text)
            } catch {
                // Strict JSON may hold what the extractor refuses by design: a number or an
                // escape run past its length limits (a looping model), or nesting past its depth.
                switch error {
                case .runawayNumber, .runawayEscape, .tooDeep: return
                case .noJSONFound: extracted = nil
                }
            }
            fuzzRequire(extracted?.count == 1, "extractor split a strict value")
            fuzzRequire(extracted?.first?.value == value, "extractor changed a strict value")
        default:
            break
        }
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    JSONParseFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
