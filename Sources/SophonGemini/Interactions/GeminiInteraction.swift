import SophonCore

/// An Interaction as the API returns it (gemini-wire-format-3.md §1.9): its id, status, the
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
    /// while no `function_result` with its id follows it (PRODUCT §15; a reply may repeat
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
