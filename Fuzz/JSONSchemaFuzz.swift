import SophonCore
import SophonGemini

/// Fuzz target `json-schema`: a schema file as `schema @FILE` reads it — strict JSON, then
/// `GeminiSchemaDocument` (Gemini Schema read strictly, or JSON Schema through
/// `JSONSchemaConverter` with `$ref` inlining) — then everything done with the schema
/// (``SchemaExercise``).
///
/// Invariants: errors name a JSON path starting at `$`; a schema read prints and reads back the
/// same.
enum JSONSchemaFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let document = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
        _ = GeminiSchemaDocument.Dialect.detect(document)
        let read: GeminiSchemaDocument
        do {
            read = try GeminiSchemaDocument(document)
        } catch {
            fuzzRequire(error.path.hasPrefix("$"), "error path \(error.path)")
            _ = error.description
            return
        }
        for note in read.notes { _ = note.description }
        SchemaExercise.run(read.schema)
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    JSONSchemaFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
