/// How results are printed (`set output pretty|json|raw`, `--json`; docs/language.md).
enum OutputFormat: String, Sendable, Equatable {
    /// Indented JSON values, text as is.
    case pretty
    /// One JSON object per command on one line of stdout.
    case json
    /// Strings without quotes, other values as compact JSON.
    case raw
}
