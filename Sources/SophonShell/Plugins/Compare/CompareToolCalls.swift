import SophonCore
import SophonGemini

/// The served tools of one `compare` (docs/commands.md, "compare"): the models run at once,
/// each through the one tool loop, but their calls to plugins and MCP servers are served one at
/// a time, in the order they arrive, so a consent question is never interleaved with another
/// and a plugin sees one call at a time, as under `ask`.
actor CompareToolCalls {
    private let served: GeminiToolServer
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The queue in front of `served` (``ServedTools/server(context:services:)``).
    init(_ served: GeminiToolServer) { self.served = served }

    /// The loop's server for one model: the same declarations and served names, each call
    /// answered through this queue.
    nonisolated var server: GeminiToolServer {
        GeminiToolServer(
            declarations: served.declarations, oneAtATime: true, serves: served.serves,
            answer: { [self] call in await self.answer(call) })
    }

    /// Answers `call` once no other model's call is being answered.
    private func answer(_ call: FunctionCall) async -> JSONValue {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        let response = await served.answer(call)
        busy = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
        return response
    }
}
