import Foundation
import SophonCore

/// An Interaction as the API returns it (docs/interactions.md): its id, status, the
/// model or agent, the steps, usage and errors. `POST /interactions` returns only the new
/// output steps; `GET` the whole timeline, the `user_input` steps included.
public struct GeminiInteraction: Sendable, Hashable {
    /// `id`: what `previous_interaction_id`, get, cancel and delete name.
    public var id: String
    /// `status`.
    public var status: GeminiInteractionStatus
    /// `model`, for a model interaction.
    public var model: String?
    /// `agent`, for an agent interaction.
    public var agent: String?
    /// `steps`, in order.
    public var steps: [GeminiInteractionStep]
    /// `usage`, when the reply has it (a finished interaction).
    public var usage: GeminiInteractionUsage?
    /// `errors[]` of a failed interaction, and the error of a `model_output` step, in order.
    public var errors: [GeminiInteractionError]
    /// `previous_interaction_id`, when the interaction continued another.
    public var previousInteractionID: String?
    /// The whole object as received.
    public var json: JSONValue

    /// Reads an Interaction object.
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`badResponse`) when it is not an object
    ///   with a string `id`.
    public init(json: JSONValue) throws {
        guard let id = json["id"]?.stringValue else {
            throw GeminiError.transport(
                .badResponse, detail: "Interaction without an id: \(String(json.compactText.prefix(200)))")
        }
        self.init(id: id, json: json)
    }

    /// Reads an Interaction object whose id is known (the assembled stream's).
    init(id: String, json: JSONValue) {
        self.id = id
        self.json = json
        status = GeminiInteractionStatus(rawValue: json["status"]?.stringValue ?? "")
        model = json["model"]?.stringValue
        agent = json["agent"]?.stringValue
        previousInteractionID = json["previous_interaction_id"]?.stringValue
        if case .array(let items)? = json["steps"] {
            steps = items.map(GeminiInteractionStep.init(json:))
        } else {
            steps = []
        }
        usage = json["usage"].map(GeminiInteractionUsage.init(json:))
        var errors: [GeminiInteractionError] = []
        if case .array(let items)? = json["errors"] {
            errors += items.map(GeminiInteractionError.init(json:))
        }
        for step in steps {
            if let error = step.json["error"], step.type == "model_output" {
                errors.append(GeminiInteractionError(json: error))
            }
        }
        self.errors = errors
    }

    /// The answer text, as the SDKs compute `output_text` (pg `_output_properties_from_steps`):
    /// the text of the trailing `model_output` steps, back to the last `user_input` step.
    public var outputText: String { outputSteps.map(\.text).joined() }

    /// The answer's media, as the SDKs compute `output_image` and `output_audio`: the
    /// `image`, `audio`, `video` and `document` blocks with inline `data` of the trailing
    /// `model_output` steps, in order, as `inlineData` parts (the shape generateContent's
    /// replies carry them in, so both are saved the same way).
    public var outputMedia: [Part] {
        outputSteps.flatMap { step -> [Part] in
            guard case .modelOutput(let content) = step.kind else { return [] }
            return content.compactMap(\.inlineData).map { Part(inlineData: $0) }
        }
    }

    /// The trailing `model_output` steps, back to the last `user_input` or `function_result`.
    private var outputSteps: [GeminiInteractionStep] {
        var outputs: [GeminiInteractionStep] = []
        for step in steps.reversed() {
            if step.type == "user_input" || step.type == "function_result" { break }
            if step.type == "model_output" { outputs.insert(step, at: 0) }
        }
        return outputs
    }

    /// The function calls still waiting for a result, in call order: a call is pending only
    /// while no `function_result` with its id follows it (docs/interactions.md; a reply may repeat
    /// steps of earlier turns).
    public var pendingCalls: [FunctionCall] {
        var answered = Set<String>()
        var calls: [FunctionCall] = []
        for step in steps {
            switch step.kind {
            case .functionCall(let call): calls.append(call)
            case .functionResult(let callID, _, _, _): answered.insert(callID)
            default: break
            }
        }
        return calls.filter { !answered.contains($0.id ?? "") }
    }

    /// The sources the answer cites (`url_citation` annotations of the trailing output), each
    /// URL once, in order.
    public var sources: [GeminiInteractionSource] {
        var seen = Set<String>()
        var sources: [GeminiInteractionSource] = []
        for step in steps where step.type == "model_output" {
            guard case .modelOutput(let content) = step.kind else { continue }
            for source in content.flatMap(\.citations) where seen.insert(source.url).inserted {
                sources.append(source)
            }
        }
        return sources
    }
}

/// The `status` of an Interaction (docs/interactions.md): an open set, so a value this
/// client does not know yet still decodes (``rawValue`` keeps it).
public struct GeminiInteractionStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value, e.g. `in_progress`.
    public var rawValue: String

    /// A status from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `in_progress`: the model or agent is still working.
    public static let inProgress = GeminiInteractionStatus(rawValue: "in_progress")
    /// `queued`: accepted, not started.
    public static let queued = GeminiInteractionStatus(rawValue: "queued")
    /// `requires_action`: client-side function calls wait for their `function_result` steps.
    public static let requiresAction = GeminiInteractionStatus(rawValue: "requires_action")
    /// `completed`.
    public static let completed = GeminiInteractionStatus(rawValue: "completed")
    /// `failed`: see the interaction's `errors`.
    public static let failed = GeminiInteractionStatus(rawValue: "failed")
    /// `cancelled` (by a cancel request).
    public static let cancelled = GeminiInteractionStatus(rawValue: "cancelled")
    /// `incomplete`: stopped early (e.g. the output limit).
    public static let incomplete = GeminiInteractionStatus(rawValue: "incomplete")
    /// `budget_exceeded`: an agent ran out of its budget.
    public static let budgetExceeded = GeminiInteractionStatus(rawValue: "budget_exceeded")

    /// Whether polling ends here (docs/interactions.md): `completed`, `failed`, `cancelled`,
    /// `incomplete`, `budget_exceeded`, and `requires_action` (the calls go back to the caller).
    public var endsPolling: Bool {
        [.completed, .failed, .cancelled, .incomplete, .budgetExceeded, .requiresAction].contains(self)
    }

    /// The wire value.
    public var description: String { rawValue }
}

/// The `usage` of an Interaction (docs/interactions.md): token counts
/// for the whole interaction. Absent counts are `nil`.
public struct GeminiInteractionUsage: Sendable, Hashable {
    /// `total_input_tokens`.
    public var inputTokens: Int?
    /// `total_output_tokens`.
    public var outputTokens: Int?
    /// `total_thought_tokens`.
    public var thoughtTokens: Int?
    /// `total_cached_tokens`.
    public var cachedTokens: Int?
    /// `total_tool_use_tokens`.
    public var toolUseTokens: Int?
    /// `total_tokens`.
    public var totalTokens: Int?

    /// Creates usage counts.
    public init(
        inputTokens: Int? = nil, outputTokens: Int? = nil, thoughtTokens: Int? = nil,
        cachedTokens: Int? = nil,
        toolUseTokens: Int? = nil, totalTokens: Int? = nil
    ) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.thoughtTokens = thoughtTokens
        self.cachedTokens = cachedTokens
        self.toolUseTokens = toolUseTokens
        self.totalTokens = totalTokens
    }

    /// The counts of a `usage` object (numbers that are not integers are left out).
    public init(json: JSONValue) {
        func count(_ key: String) -> Int? { json[key]?.doubleValue.flatMap { Int(exactly: $0) } }
        self.init(
            inputTokens: count("total_input_tokens"), outputTokens: count("total_output_tokens"),
            thoughtTokens: count("total_thought_tokens"), cachedTokens: count("total_cached_tokens"),
            toolUseTokens: count("total_tool_use_tokens"), totalTokens: count("total_tokens"))
    }

    /// The same counts under generateContent's names (`promptTokenCount` = input,
    /// `candidatesTokenCount` = output, `thoughtsTokenCount`, `cachedContentTokenCount`,
    /// `toolUsePromptTokenCount`, `totalTokenCount`), so totals add up across both APIs.
    public var metadata: UsageMetadata {
        var usage = UsageMetadata(
            promptTokenCount: inputTokens, candidatesTokenCount: outputTokens,
            thoughtsTokenCount: thoughtTokens,
            totalTokenCount: totalTokens)
        usage.cachedContentTokenCount = cachedTokens
        usage.toolUsePromptTokenCount = toolUseTokens
        return usage
    }
}

/// One error an Interaction records (`errors[]`: `{code, message}`, the code a string; or a
/// `model_output` step's google.rpc `error`, its code a number).
public struct GeminiInteractionError: Sendable, Hashable, CustomStringConvertible {
    /// The code as text (`internal`, `invalid_request`, or a number).
    public var code: String
    /// The message.
    public var message: String

    /// Creates an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// Reads `{code, message}`.
    public init(json: JSONValue) {
        let code: String =
            switch json["code"] {
            case .string(let text)?: text
            case .number(let number)?: number.text
            default: ""
            }
        self.init(code: code, message: json["message"]?.stringValue ?? "")
    }

    /// `CODE: MESSAGE` (the message alone without a code).
    public var description: String { code.isEmpty ? message : "\(code): \(message)" }
}

/// The error body of the Interactions API, `{"error": {"code": "invalid_request", "message":
/// ".."}}`, whose `code` is a string (docs/interactions.md; the codes and their HTTP
/// statuses: Google's "API errors" page, https://ai.google.dev/gemini-api/docs/api-errors),
/// turned into the same ``GeminiError`` a generateContent error of that HTTP status becomes:
/// the string code is the error's API status (`apiStatus`), the HTTP status drives the case
/// (400 `invalidRequest`, 401 `invalidAPIKey`, 429 `rateLimited`, 5xx `http`, ...), except
/// `quota_exceeded` (the daily quota), which is ``GeminiError/quotaExhausted(quotaId:message:)``
/// and never retried. A google.rpc body (a key refused before the API is reached) is read as
/// generateContent's.
enum GeminiInteractionErrorBody {
    /// `(code, message)` of an Interactions error body, else `nil`.
    static func parse(_ data: Data) -> (code: String, message: String)? {
        guard let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
            let error = value["error"], let code = error["code"]?.stringValue
        else { return nil }
        return (code, error["message"]?.stringValue ?? "")
    }

    /// The typed error of a non-200 reply.
    static func classify(status: Int, headers: [String: String], body: Data) -> AttemptError {
        guard let (code, message) = parse(body) else {
            return GeminiStatusClassifier.classify(status: status, headers: headers, body: body, modelID: nil)
        }
        if code == "quota_exceeded" { return AttemptError(.quotaExhausted(quotaId: nil, message: message)) }
        let rpc = GoogleRPCStatus(code: status, message: message, status: code)
        return GeminiStatusClassifier.classify(
            status: status, headers: headers, body: body, modelID: nil, rpc: rpc)
    }

    /// The typed error of a stream's `error` event: its string code read as the HTTP status
    /// it stands for (unknown codes as 500).
    static func classify(event error: GeminiInteractionError) -> AttemptError {
        let statuses = [
            "invalid_request": 400, "failed_precondition": 400, "parameter_unknown": 400,
            "invalid_argument": 400,
            "authentication": 401, "unauthenticated": 401, "payment_required": 402, "permission_denied": 403,
            "not_found": 404, "model_not_found": 404, "conflict": 409, "out_of_range": 416,
            "rate_limit_exceeded": 429, "quota_exceeded": 429, "resource_exhausted": 429, "cancelled": 499,
            "internal": 500, "unavailable": 503, "deadline_exceeded": 504,
        ]
        if error.code.lowercased() == "quota_exceeded" {
            return AttemptError(.quotaExhausted(quotaId: nil, message: error.message))
        }
        let status = statuses[error.code.lowercased()] ?? Int(error.code) ?? 500
        let rpc = GoogleRPCStatus(code: status, message: error.message, status: error.code)
        return GeminiStatusClassifier.classify(
            status: status, headers: [:], body: Data(), modelID: nil, rpc: rpc)
    }
}
