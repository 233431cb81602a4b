import SophonCore
import SophonGemini
import Synchronization

/// The state one `sophon` run keeps across commands and files (PRODUCT.md §4, §5): settings,
/// variables, `$last`, the commands that succeeded (for `save`) and the expectation tally.
///
/// Commands run one at a time, but the REPL's completion and signal paths read the session
/// from other contexts, so the state sits behind a `Mutex`.
final class ShellSession: Sendable {
    /// The mutable part of the session.
    struct State: Sendable {
        /// `set`/`show` values.
        var settings = ShellSettings()
        /// Variables set by `let` (and plugins), without `last`.
        var variables: [String: JSONValue] = [:]
        /// The last result (`$last`), set by commands that produce a value.
        var last: JSONValue?
        /// The schema structured calls use and `validate` checks against (`schema SPEC`).
        var schema: GeminiSchema?
        /// Conversation, attachments, retry policy and usage of the gemini plugin.
        var gemini = GeminiState()
        /// Every command that succeeded, as typed, in order (for `save`).
        var succeededCommands: [String] = []
        /// Expectations evaluated so far.
        var passed = 0
        /// Expectations failed so far (malformed ones included).
        var failed = 0
        /// Whether any command of a non-interactive run failed.
        var anyCommandFailed = false
    }

    private let state: Mutex<State>

    /// Creates a session with default settings.
    init(settings: ShellSettings = ShellSettings()) {
        var initial = State()
        initial.settings = settings
        state = Mutex(initial)
    }

    /// Runs `body` with exclusive access to the state.
    func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { try body(&$0) }
    }

    /// The current settings.
    var settings: ShellSettings { withState { $0.settings } }

    /// The value of variable `name` (`last` is `$last`), or `nil` when undefined.
    func variable(_ name: String) -> JSONValue? {
        withState { name == "last" ? $0.last : $0.variables[name] }
    }

    /// Whether at least one `expect` was evaluated.
    var evaluatedExpectations: Bool { withState { $0.passed + $0.failed > 0 } }
}
