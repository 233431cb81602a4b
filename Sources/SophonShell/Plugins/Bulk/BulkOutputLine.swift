import SophonCore
import SophonGemini

/// The output lines of `run` and `batch results` (docs/running-many-prompts.md), one compact
/// JSON object each: `{"key":K,"ok":true,"result":VALUE,"model":ID,"usage":{...}}` or
/// `{"key":K,"ok":false,"error":{"kind":NAME,"message":TEXT}}`.
enum BulkOutputLine {
    /// A successful line; `usage` carries `promptTokens`, `outputTokens`, `thoughtsTokens`,
    /// `totalTokens` (0 when the reply left a count out).
    static func success(key: JSONValue, result: JSONValue, model: String, usage: UsageMetadata?) -> String {
        JSONValue.object([
            JSONMember("key", key),
            JSONMember("ok", .bool(true)),
            JSONMember("result", result),
            JSONMember("model", .string(model)),
            JSONMember("usage", GeminiCall.usageValue(usage)),
        ]).compactText
    }

    /// A failed line: `kind` is the lowerCamelCase error name (`rateLimited`, `promptBlocked`);
    /// `model` (`run --models`) names the model asked, after `error`.
    static func failure(key: JSONValue, kind: String, message: String, model: String? = nil) -> String {
        JSONValue.object(
            [
                JSONMember("key", key),
                JSONMember("ok", .bool(false)),
                JSONMember(
                    "error",
                    .object([JSONMember("kind", .string(kind)), JSONMember("message", .string(message))])),
            ] + (model.map { [JSONMember("model", .string($0))] } ?? [])
        ).compactText
    }

    /// The key (as text, a number key as its JSON text) and `ok` of an output line; `nil` for a
    /// line that is not one (a torn last line after a kill).
    static func read(_ text: String) -> (key: String, ok: Bool)? {
        guard let value = try? JSONValue(parsing: text), case .bool(let ok)? = value["ok"] else { return nil }
        switch value["key"] {
        case .string(let key)?: return (key, ok)
        case .number(let number)?: return (number.text, ok)
        default: return nil
        }
    }
}
