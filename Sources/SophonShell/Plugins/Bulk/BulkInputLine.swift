import Foundation
import SophonCore
import SophonGemini

/// One line of a bulk input (docs/running-many-prompts.md): `{"key": K, "prompt": TEXT}` or
/// `{"key": K, "request": GenerateContentRequest}`; with `run --prompt FILE`, any object, the
/// prompt file's input. A missing key becomes `line-N`.
struct BulkInputLine: Sendable {
    /// What the line asks.
    enum Body: Sendable {
        /// A prompt: the session's settings (model, schema, system, sampling) apply.
        case prompt(String)
        /// A complete request, sent as given.
        case request(GenerateContentRequest)
        /// A prompt file's input (`run --prompt FILE`): the line's object without `key`.
        case input(JSONValue)
    }

    /// What the lines of a file are.
    enum Form: Sendable {
        /// `prompt` or `request` lines.
        case prompts
        /// Each line's object is a prompt file's input (`run --prompt FILE`).
        case inputs
    }

    /// 1-based physical line number.
    var number: Int
    /// The key as text (a number key as its JSON text).
    var key: String
    /// The key as the line wrote it (a string or a number), echoed in the output.
    var keyValue: JSONValue
    /// What to ask.
    var body: Body

    /// Reads one physical line of a file of `form`.
    /// - Returns: `nil` for a blank line (skipped, still counted).
    /// - Throws: ``BulkInputIssue`` saying what is wrong with the line.
    static func parse(_ line: BulkLineReader.Line, form: Form = .prompts) throws(BulkInputIssue)
        -> BulkInputLine?
    {
        guard let members = try line.object() else { return nil }
        let value = JSONValue.object(members)
        let key: String
        let keyValue: JSONValue
        switch value["key"] {
        case nil:
            key = "line-\(line.number)"
            keyValue = .string(key)
        case .string(let text)?:
            guard !text.isEmpty else { throw BulkInputIssue(line: line.number, message: "\"key\" is empty") }
            key = text
            keyValue = .string(text)
        case .number(let number)?:
            key = number.text
            keyValue = .number(number)
        case let other?:
            throw BulkInputIssue(
                line: line.number, message: "\"key\" must be a string or a number, got \(other.typeName)")
        }
        if form == .inputs {
            return BulkInputLine(
                number: line.number, key: key, keyValue: keyValue,
                body: .input(.object(members.filter { $0.key != "key" })))
        }
        switch (value["prompt"], value["request"]) {
        case (nil, nil):
            throw BulkInputIssue(line: line.number, message: "needs \"prompt\" or \"request\"")
        case (.some, .some):
            throw BulkInputIssue(line: line.number, message: "has both \"prompt\" and \"request\"; keep one")
        case (.string(let prompt)?, nil):
            // Blank is empty: white space alone would be a paid call on nothing.
            guard !prompt.allSatisfy(\.isWhitespace) else {
                throw BulkInputIssue(line: line.number, message: "\"prompt\" is empty")
            }
            return BulkInputLine(number: line.number, key: key, keyValue: keyValue, body: .prompt(prompt))
        case (let other?, nil):
            throw BulkInputIssue(
                line: line.number, message: "\"prompt\" must be a string, got \(other.typeName)")
        case (nil, let request?):
            guard case .object = request else {
                throw BulkInputIssue(
                    line: line.number, message: "\"request\" must be an object, got \(request.typeName)")
            }
            let decoded: GenerateContentRequest
            do {
                decoded = try JSONDecoder().decode(
                    GenerateContentRequest.self, from: Data(request.compactText.utf8))
            } catch {
                throw BulkInputIssue(
                    line: line.number,
                    message: "\"request\" is not a GenerateContentRequest (\(describe(error)))")
            }
            guard !decoded.contents.isEmpty else {
                throw BulkInputIssue(line: line.number, message: "\"request\" has no contents")
            }
            return BulkInputLine(number: line.number, key: key, keyValue: keyValue, body: .request(decoded))
        }
    }

    /// A decoding error as a short phrase with its JSON path.
    private static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ codingPath: [any CodingKey]) -> String {
            "$" + codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        @unknown default:
            return "\(error)"
        }
    }
}

/// What is wrong with one input line.
struct BulkInputIssue: Error, Sendable, Equatable {
    /// 1-based physical line number.
    var line: Int
    /// What is wrong (`not valid JSON (column 3: ...)`, `duplicate key 'a' (first on line 1)`).
    var message: String
}

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
