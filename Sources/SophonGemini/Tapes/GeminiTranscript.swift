import Foundation
import SophonCore

/// Where a run's exchanges go (docs/tapes.md): live, recorded onto a tape
/// (``GeminiTapeRecorder``), or replayed from one (``GeminiTapeReplayer``). Both the HTTP
/// exchanges (``transport``) and the results of served tool calls
/// (``serve(_:server:run:)``) go through it; a run is given one, once, and no other code asks
/// which kind it is.
public protocol GeminiTranscript: Sendable {
    /// The transport HTTP exchanges go through.
    var transport: any GeminiTransport { get }

    /// Whether the run's tools and key are real: servers and plugins start, a key is needed.
    /// `false` when the record answers every exchange and call (a replay).
    var runsLive: Bool { get }

    /// The functions the record offers for the next request instead of the running tools, with
    /// the server the record names for each (`nil`: live, the running tools offer theirs).
    /// - Parameter orLast: after the record's last request, that request's functions.
    func recordedFunctions(orLast: Bool) -> [GeminiRecordedFunction]?

    /// Serves one function call: `run` (live), `run` with its outcome written to the record,
    /// or the recorded outcome (replay, where `run` is never called).
    /// - Parameters:
    ///   - call: the call.
    ///   - server: who serves it (the plugin's or MCP server's name), as the record keeps it.
    ///   - run: serves it live.
    func serve(
        _ call: FunctionCall, server: String, run: () async -> GeminiToolOutcome
    ) async -> GeminiToolOutcome

    /// `configuration` fitted to this transcript (a replay needs no key and skips retry waits,
    /// reporting each to `skippedWait`).
    func configured(
        _ configuration: GeminiClientConfiguration, skippedWait: (@Sendable (Duration) -> Void)?
    ) -> GeminiClientConfiguration
}

extension GeminiTranscript {
    /// `true`: tools run and a key is needed (live and recording).
    public var runsLive: Bool { true }
    /// `nil`: the running tools offer theirs (live and recording).
    public func recordedFunctions(orLast: Bool) -> [GeminiRecordedFunction]? { nil }
    /// `configuration` as is (live and recording).
    public func configured(
        _ configuration: GeminiClientConfiguration, skippedWait: (@Sendable (Duration) -> Void)?
    ) -> GeminiClientConfiguration { configuration }
}

/// A function a record offered, and the server it names for it.
public struct GeminiRecordedFunction: Sendable {
    /// The declaration as recorded (`{"name", "description"?, "parameters" | "parametersJsonSchema"}`).
    public var declaration: JSONValue
    /// The server the record's first call of it names; `nil` when none does.
    public var server: String?
}

/// The outcome of one served call, as a record keeps it.
public enum GeminiToolOutcome: Sendable, Equatable {
    /// The tool's result.
    case result(JSONValue)
    /// `{"error": MESSAGE}`: declined, refused arguments, or a failed call.
    case error(String)
    /// Not served, and nothing recorded: the command was cancelled (`response` goes back), or a
    /// replay has no recorded call of that name here.
    case unrecorded(response: JSONValue, missing: Bool)
}

/// A live run: exchanges go to `transport`, tools run, nothing is kept.
public struct GeminiLiveTranscript: GeminiTranscript {
    /// The transport exchanges go to.
    public let transport: any GeminiTransport
    /// A live transcript over `transport`.
    public init(transport: any GeminiTransport) { self.transport = transport }
    /// Runs the call.
    public func serve(
        _ call: FunctionCall, server: String, run: () async -> GeminiToolOutcome
    ) async -> GeminiToolOutcome { await run() }
}

extension GeminiTapeRecorder: GeminiTranscript {
    /// The recorder itself: it sends through ``inner`` and writes each exchange.
    public var transport: any GeminiTransport { self }

    /// Runs the call and writes its `tool` line (every call, declined and refused ones too, so a
    /// replay answers the calls in the same order); a cancelled call writes none.
    public func serve(
        _ call: FunctionCall, server: String, run: () async -> GeminiToolOutcome
    ) async -> GeminiToolOutcome {
        let outcome = await run()
        let member: JSONMember
        switch outcome {
        case .result(let value): member = JSONMember("result", value)
        case .error(let message): member = JSONMember("error", .string(message))
        case .unrecorded: return outcome
        }
        guard !Task.isCancelled else { return outcome }  // A cancelled command sends nothing more.
        recordToolCall(
            .object([
                JSONMember("name", .string(call.name)), JSONMember("args", call.args ?? .object([])),
                JSONMember("server", .string(server)), member,
            ]))
        return outcome
    }
}

extension GeminiTapeReplayer: GeminiTranscript {
    /// The replayer itself: it answers each request from the tape.
    public var transport: any GeminiTransport { self }
    /// Always `false`: the tape answers every exchange and call.
    public var runsLive: Bool { false }

    /// The functions of the next recorded request (or the last one, with `orLast`, after the
    /// tape's last exchange), each with the server of the tape's first `tool` line naming it.
    public func recordedFunctions(orLast: Bool) -> [GeminiRecordedFunction]? {
        var servers: [String: String] = [:]
        for call in tape.toolCalls {
            if let name = call["name"]?.stringValue, let server = call["server"]?.stringValue,
                servers[name] == nil
            {
                servers[name] = server
            }
        }
        let body = upcomingRequest?.body ?? (orLast ? tape.exchanges.last?.request.body : nil)
        guard case .array(let tools)? = body?["tools"] else { return [] }
        return tools.flatMap { tool -> [GeminiRecordedFunction] in
            guard case .array(let declarations)? = tool["functionDeclarations"] else { return [] }
            return declarations.map { declaration in
                GeminiRecordedFunction(
                    declaration: declaration, server: declaration["name"]?.stringValue.flatMap { servers[$0] }
                )
            }
        }
    }

    /// The next recorded call's outcome when it is a call of `call.name`; `unrecorded(missing:
    /// true)` otherwise. `run` is never called.
    public func serve(
        _ call: FunctionCall, server: String, run: () async -> GeminiToolOutcome
    ) async -> GeminiToolOutcome {
        guard let recorded = takeToolCall(), recorded["name"]?.stringValue == call.name else {
            let message = "the tape has no recorded call of '\(call.name)' here"
            return .unrecorded(response: .object([JSONMember("error", .string(message))]), missing: true)
        }
        if let error = recorded["error"] { return .error(error.stringValue ?? error.compactText) }
        return .result(recorded["result"] ?? .null)
    }

    /// ``GeminiClientConfiguration/replayingTape(skippedWait:)``.
    public func configured(
        _ configuration: GeminiClientConfiguration, skippedWait: (@Sendable (Duration) -> Void)?
    ) -> GeminiClientConfiguration { configuration.replayingTape(skippedWait: skippedWait) }
}
