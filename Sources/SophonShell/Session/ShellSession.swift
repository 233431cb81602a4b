import SophonCore
import Synchronization

/// The state one `sophon` run keeps across commands and files (docs/commands.md): settings,
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
        /// The last result (`$last`), set by commands that produce a value; a result kept
        /// as text is parsed on the first read.
        var last: JSONValue? {
            get { lastStorage?.value }
            set { lastStorage = newValue.map { LazyJSONValue($0) } }
        }
        /// `$last` as stored: text, parsed on the first read of ``last``.
        var lastStorage: LazyJSONValue?
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
    /// Each plugin's own state, by its type (see ``withPluginState(_:_:)``).
    private let pluginStates = Mutex<[ObjectIdentifier: any PluginSessionState]>([:])

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

    /// Runs `body` with exclusive access to the plugin state of type `type` (created empty on
    /// first use). Plugins keep what they need across commands here; the session does not
    /// look inside.
    func withPluginState<PluginState: PluginSessionState, Result>(
        _ type: PluginState.Type, _ body: (inout PluginState) throws -> Result
    ) rethrows -> Result {
        try pluginStates.withLock { states in
            let key = ObjectIdentifier(type)
            // Taken out while `body` runs, so changing it does not copy it.
            var value = states.removeValue(forKey: key) as? PluginState ?? PluginState()
            defer { states[key] = value }
            return try body(&value)
        }
    }

    /// What the plugins' states add to the session view external plugins receive, ordered by
    /// the state's type name so the view is stable.
    var pluginSessionViewMembers: [JSONMember] {
        pluginStates.withLock { states in
            states.values.sorted { String(describing: type(of: $0)) < String(describing: type(of: $1)) }
                .flatMap(\.sessionViewMembers)
        }
    }

    /// The current settings.
    var settings: ShellSettings { withState { $0.settings } }

    /// The value of variable `name` (`last` is `$last`), or `nil` when undefined.
    func variable(_ name: String) -> JSONValue? {
        withState { name == "last" ? $0.last : $0.variables[name] }
    }

    /// The variable `name` when it is kept as text (`$last` only), else `nil`.
    func variableKeptAsText(_ name: String) -> LazyJSONValue? {
        name == "last" ? withState { $0.lastStorage } : nil
    }

    /// Whether at least one `expect` was evaluated.
    var evaluatedExpectations: Bool { withState { $0.passed + $0.failed > 0 } }
}

/// What one plugin keeps in a session (the Gemini plugin: schema, conversation, attachments,
/// retry policy, usage). The session stores one value per type and never looks inside.
protocol PluginSessionState: Sendable {
    /// The state of a new session.
    init()
    /// Members the session view sent to external plugins carries for this state (after
    /// `model`); none by default.
    var sessionViewMembers: [JSONMember] { get }
}

extension PluginSessionState {
    var sessionViewMembers: [JSONMember] { [] }
}
