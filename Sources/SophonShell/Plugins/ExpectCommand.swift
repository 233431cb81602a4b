import SophonCore
import SophonGemini

/// `expect A OP B` and `expect valid` (PRODUCT.md §5): counts toward the closing tally; a
/// failed or malformed expectation is a failed command. Never changes `$last`.
enum ExpectCommand {
    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let words = request.parsed?.arguments ?? ArraySlice(request.arguments.map { ShellWord.literal($0) })
        let expander = ShellExpander(lookup: context.session.variable)
        let outcome: ExpectOutcome
        do {
            let expression = try ExpectExpression.parse(words)
            outcome = try ExpectEvaluator.evaluate(expression, expander: expander) {
                validateLast(context.session)
            }
        } catch {
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: "expectFailed", message: "expect: \(error.message)")
        }
        switch outcome {
        case .passed:
            context.session.withState { $0.passed += 1 }
            return .none
        case .failed(let message):
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: "expectFailed", message: "expect: \(message)")
        }
    }

    /// `expect valid`: `$last` against the session's schema.
    static func validateLast(_ session: ShellSession) -> ExpectOutcome {
        let (schema, last) = session.withState { ($0.schema, $0.last) }
        guard let schema else { return .failed(message: "no schema is set; set one with 'schema SPEC'") }
        guard let last else { return .failed(message: "no result to validate yet ($last is not set)") }
        let violations = schema.validate(last)
        guard let first = violations.first else { return .passed }
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        return .failed(message: "$last does not match the schema: \(first)\(more)")
    }
}
