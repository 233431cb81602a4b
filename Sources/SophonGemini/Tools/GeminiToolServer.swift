import SophonCore

/// Who answers the function calls of a tool loop (docs/library.md, "Tools"): the declarations
/// sent with each request, which calls it takes, and the code that answers one call.
///
/// ``init(handlers:)`` serves in-process ``GeminiFunctionHandler``s, the calls of one answer
/// concurrently. The shell serves external plugins, MCP servers and tapes through
/// ``init(declarations:oneAtATime:serves:answer:)``, one call at a time (a call may ask the
/// user for consent), and leaves the calls it does not serve to `tool-reply`.
public struct GeminiToolServer: Sendable {
    /// The declarations sent as the request's `tools` by ``GeminiAPIClient/generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``.
    public var declarations: [FunctionDeclaration]
    /// Whether the calls of one answer are answered one after another, in call order
    /// (concurrently otherwise).
    public var oneAtATime: Bool
    /// Whether the loop answers a call of this name; an answer with a call it does not answer
    /// ends the loop with the calls left pending in the conversation.
    public var serves: @Sendable (String) -> Bool
    /// Answers one call: the function response (an object; `{"error": MESSAGE}` for a failure).
    public var answer: @Sendable (FunctionCall) async -> JSONValue

    /// A server of any calls.
    /// - Parameters:
    ///   - declarations: the declarations it serves.
    ///   - oneAtATime: whether calls are answered in call order, one at a time.
    ///   - serves: whether it answers a call of a name.
    ///   - answer: answers one call.
    public init(
        declarations: [FunctionDeclaration], oneAtATime: Bool = false,
        serves: @escaping @Sendable (String) -> Bool,
        answer: @escaping @Sendable (FunctionCall) async -> JSONValue
    ) {
        self.declarations = declarations
        self.oneAtATime = oneAtATime
        self.serves = serves
        self.answer = answer
    }

    /// Serves `handlers`: every call is answered, concurrently, with the handler's result, or
    /// `{"error": MESSAGE}` for an unknown function, arguments that break the declaration
    /// (``FunctionDeclaration/argumentError(_:)``; the handler is not called), or a thrown
    /// error.
    public init(handlers: [GeminiFunctionHandler]) {
        self.init(declarations: handlers.map(\.declaration), serves: { _ in true }) { call in
            guard let handler = handlers.first(where: { $0.declaration.name == call.name }) else {
                return Self.error("no function named '\(call.name)' is declared")
            }
            let arguments = call.args ?? .object([])
            if let problem = handler.declaration.argumentError(arguments) { return Self.error(problem) }
            do {
                return try await handler.run(arguments)
            } catch {
                return Self.error("\(error)")
            }
        }
    }

    /// `{"error": MESSAGE}`: a failed call's function response.
    public static func error(_ message: String) -> JSONValue {
        .object([JSONMember("error", .string(message))])
    }
}

extension FunctionDeclaration {
    /// The one rule for arguments that break this declaration, for every served call (handler,
    /// plugin, MCP server): `invalid arguments: ` and every violation, joined with `; `;
    /// `nil` when they fit (or the declaration has a raw JSON Schema, which is not checked).
    /// - Parameter arguments: the call's arguments (`{}` when the model sent none).
    public func argumentError(_ arguments: JSONValue) -> String? {
        let violations = violations(of: arguments)
        return violations.isEmpty ? nil : "invalid arguments: " + violations.joined(separator: "; ")
    }
}

/// What a tool loop reports while it runs (``GeminiAPIClient/runTools(label:conversation:request:server:model:maxToolRounds:retryPolicy:onEvent:)``).
public enum GeminiToolLoopEvent: Sendable {
    /// Round `round` (1-based: one model request) is about to be sent.
    case sending(round: Int)
    /// Round `round` was answered with `result`; `answering` tells whether its calls are
    /// answered next (false for the final answer, or calls the server does not serve).
    case received(round: Int, result: GeminiResult<GenerateContentResponse>, answering: Bool)
}
