import SophonCore
import SophonGemini

/// Fuzz target `schema-syntax`: `GeminiSchema.parseSpec` (type syntax and `llm`'s concise
/// syntax, as `schema SPEC` and `extract --schema SPEC` read them), then everything done with
/// the schema (``SchemaExercise``).
///
/// Invariants: an error has a line and column from 1, on a line of the input; a schema read
/// prints and reads back the same.
enum SchemaSyntaxFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let schema: GeminiSchema
        do {
            schema = try GeminiSchema.parseSpec(text)
        } catch {
            // The parsers break lines where Swift does (`Character.isNewline`: also \r, \u{0B},
            // \u{0C}, U+0085, U+2028, U+2029), for the grammar and the location alike.
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            fuzzRequire(
                error.line >= 1 && error.column >= 1 && error.line <= max(lines, 1),
                "bad location \(error.line):\(error.column) in \(lines) lines")
            _ = error.description
            return
        }
        SchemaExercise.run(schema)
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    SchemaSyntaxFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
