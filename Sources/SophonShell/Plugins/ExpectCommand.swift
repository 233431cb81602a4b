import SophonCore

/// `expect A OP B` and `expect valid` (docs/language.md): counts toward the closing tally; a
/// failed or malformed expectation is a failed command. Never changes `$last`.
enum ExpectCommand {
    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let words = request.parsed?.arguments ?? ArraySlice(request.arguments.map { ShellWord.literal($0) })
        let expander = ShellExpander(lookup: context.session.variable)
        let outcome: ExpectOutcome
        do {
            let expression = try ExpectExpression.parse(words)
            outcome = try ExpectEvaluator.evaluate(expression, expander: expander) {
                validateLast(context)
            }
        } catch {
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(error.message)")
        }
        switch outcome {
        case .passed:
            context.session.withState { $0.passed += 1 }
            return .none
        case .failed(let message):
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(message)")
        }
    }

    /// `expect valid`: `$last` checked by the plugin that owns validation (the schema's).
    static func validateLast(_ context: CommandContext) -> ExpectOutcome {
        context.registry.expectValid(context: context)
            ?? .failed(message: "no schema is set; set one with 'schema SPEC'")
    }
}
