import Foundation
import SophonCore

extension GeminiAPIClient {
    /// The Interactions API (docs/interactions.md): create, get,
    /// stream and resume, cancel and delete, on this client's one call path (key, deadline,
    /// retries by the policy, redaction, tapes).
    public var interactions: GeminiInteractions { GeminiInteractions(client: self) }
}

/// The Interactions API of one ``GeminiAPIClient`` (``GeminiAPIClient/interactions``).
///
/// Every request goes through the client's single call path, so the retry policy, the
/// whole-call limit, key masking, the observer's events and tapes apply as for
/// generateContent. Errors are ``GeminiError``s: the API's string codes (`invalid_request`,
/// `not_found`) are the `apiStatus` of the error the HTTP status makes.
///
/// ```swift
/// let reply = try await client.interactions.create(
///     GeminiInteractionRequest(input: .text("Hello")))
/// print(reply.interaction.outputText, reply.interaction.id)
/// ```
public struct GeminiInteractions: Sendable {
    /// The client the requests go through.
    public let client: GeminiAPIClient

    /// An Interaction and how the call went.
    public struct Result: Sendable {
        /// The interaction (a create's reply holds only the new output steps).
        public var interaction: GeminiInteraction
        /// Retries made (attempts minus one).
        public var retryCount: Int
    }

    /// Creates an interaction: `POST /v1beta/interactions`.
    ///
    /// A model interaction is retried as generateContent is; a background one (an agent's)
    /// only after a 429, since a lost reply may have started a job.
    /// - Parameters:
    ///   - request: what to create; no model and no agent uses the selected model.
    ///   - label: a short name for logs and events.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the interaction (status `completed`, `requires_action`, or `in_progress` for
    ///   a background run) and the retries made.
    /// - Throws: ``GeminiError``, or `CancellationError`.
    public func create(
        _ request: GeminiInteractionRequest, label: String = "interaction",
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> Result {
        let body = try encodedBody(request, stream: false)
        var call = GeminiAPICall<GeminiInteraction>(
            label: label, method: "POST", namesModel: false, model: nil, endpoint: { _ in .interactions },
            body: { _ in body }, read: { http, _ in try await Self.readInteraction(http) })
        if request.background == true {
            call.mayRetry = { if case .rateLimited = $0 { true } else { false } }
        }
        let (interaction, outcome) = try await client.perform(Self.revised(call), retryPolicy: retryPolicy)
        return Result(interaction: interaction, retryCount: outcome.retryCount)
    }

    /// Creates an interaction with `"stream": true` and delivers its events as they arrive.
    ///
    /// Retries happen before the first event as for any call; a stream cut before
    /// `interaction.completed` is resumed (`GET .../ID?stream=true&last_event_id=E`) within
    /// the policy's attempts, and after them ends with
    /// ``GeminiError/streamEndedEarly(partialText:)`` holding the text that arrived. An `error`
    /// event ends it with its typed error. Fold the events with
    /// ``GeminiInteractionAssembler``.
    /// - Parameters:
    ///   - request: what to create.
    ///   - label: a short name for logs and events.
    ///   - retryPolicy: overrides the configured policy for this call.
    public func stream(
        _ request: GeminiInteractionRequest, label: String = "interaction",
        retryPolicy: GeminiRetryPolicy? = nil
    ) -> AsyncThrowingStream<GeminiInteractionEvent, any Error> {
        let position = LockedBox(GeminiInteractionStreamPosition(stored: request.store != false))
        return client.deadlinedStream { continuation in
            let body = try encodedBody(request, stream: true)
            try await runStream(
                label: label, method: "POST", endpoint: .interactions, body: body, position: position,
                retryPolicy: retryPolicy, continuation: continuation)
        }
    }

    /// The events of a stored interaction: `GET .../ID?stream=true`, after `lastEventID`
    /// when given (the next event after it); resumed again when cut, as ``stream(_:label:retryPolicy:)``.
    /// - Parameters:
    ///   - id: the interaction.
    ///   - lastEventID: the `event_id` of the last event already seen; `nil` from the start.
    ///   - label: a short name for logs and events.
    ///   - retryPolicy: overrides the configured policy for this call.
    public func resume(
        _ id: String, after lastEventID: String? = nil, label: String = "interaction",
        retryPolicy: GeminiRetryPolicy? = nil
    ) -> AsyncThrowingStream<GeminiInteractionEvent, any Error> {
        let position = LockedBox(GeminiInteractionStreamPosition(id: id, lastEventID: lastEventID))
        return client.deadlinedStream { continuation in
            try await runStream(
                label: label, method: "GET",
                endpoint: .interaction(id, stream: true, lastEventID: lastEventID),
                body: nil, position: position, retryPolicy: retryPolicy, continuation: continuation)
        }
    }

    /// Reads an interaction: `GET /v1beta/interactions/ID` (its whole timeline).
    /// - Throws: ``GeminiError`` (`http` 404 with `apiStatus` `not_found` when the server no
    ///   longer has it), or `CancellationError`.
    public func get(_ id: String, label: String = "interaction", retryPolicy: GeminiRetryPolicy? = nil)
        async throws -> GeminiInteraction
    {
        let call = GeminiAPICall<GeminiInteraction>(
            label: label, method: "GET", namesModel: false, model: nil, endpoint: { _ in .interaction(id) },
            body: { _ in nil }, read: { http, _ in try await Self.readInteraction(http) })
        return try await client.perform(Self.revised(call), retryPolicy: retryPolicy).value
    }

    /// Cancels a background interaction: `POST /v1beta/interactions/ID/cancel`.
    /// - Returns: the interaction as the API returns it (status `cancelled`).
    /// - Throws: ``GeminiError``, or `CancellationError`.
    public func cancel(_ id: String, label: String = "interaction", retryPolicy: GeminiRetryPolicy? = nil)
        async throws -> GeminiInteraction
    {
        let call = GeminiAPICall<GeminiInteraction>(
            label: label, method: "POST", namesModel: false, model: nil,
            endpoint: { _ in .cancelInteraction(id) },
            body: { _ in nil }, read: { http, _ in try await Self.readInteraction(http) })
        return try await client.perform(Self.revised(call), retryPolicy: retryPolicy).value
    }

    /// Deletes a stored interaction: `DELETE /v1beta/interactions/ID` (the reply's body is
    /// ignored, as the SDKs do).
    /// - Throws: ``GeminiError``, or `CancellationError`.
    public func delete(_ id: String, label: String = "interaction", retryPolicy: GeminiRetryPolicy? = nil)
        async throws
    {
        let call = GeminiAPICall<Void>(
            label: label, method: "DELETE", namesModel: false, model: nil,
            endpoint: { _ in .interaction(id) },
            body: { _ in nil }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                throw GeminiInteractionErrorBody.classify(
                    status: http.status, headers: http.headers, body: data)
            }
        }
        _ = try await client.perform(Self.revised(call), retryPolicy: retryPolicy)
    }

    /// Polls an interaction until its status ends polling (``GeminiInteractionStatus/endsPolling``),
    /// through the one wait for server-side jobs (`GeminiPoller`, the configuration's `sleep`:
    /// a replayed tape skips the waits): `interval` first, doubled after each read up to
    /// `maxInterval` (no growth when `nil`).
    /// - Parameters:
    ///   - id: the interaction.
    ///   - interval: the first wait between reads.
    ///   - maxInterval: the longest wait; `nil` keeps `interval`.
    ///   - timeout: how long to wait in all; `nil` waits as long as the job runs.
    ///   - label: a short name for logs and events.
    ///   - retryPolicy: overrides the configured policy for each read.
    ///   - onUpdate: told each interaction read, in order.
    /// - Returns: the last interaction read.
    /// - Throws: ``GeminiError`` (`transport` `.timedOut` after `timeout`), or
    ///   `CancellationError` (the job goes on on the server).
    public func wait(
        _ id: String, every interval: Duration, upTo maxInterval: Duration? = nil, timeout: Duration? = nil,
        label: String = "interaction", retryPolicy: GeminiRetryPolicy? = nil,
        onUpdate: (GeminiInteraction) -> Void = { _ in }
    ) async throws -> GeminiInteraction {
        let poller = GeminiPoller(
            firstInterval: interval, maxInterval: maxInterval ?? interval,
            timeout: timeout ?? .seconds(Int64(Int32.max)), sleep: client.configuration.sleep)
        return try await poller.poll(
            {
                let interaction = try await get(id, label: label, retryPolicy: retryPolicy)
                onUpdate(interaction)
                return interaction.status.endsPolling ? interaction : nil
            },
            timedOut: { waited in
                GeminiError.transport(
                    .timedOut, detail: "interaction \(id) still running after \(waited.components.seconds) s")
            })
    }

    /// The request's JSON body, the model resolved (the selected one when none is given).
    private func encodedBody(_ request: GeminiInteractionRequest, stream: Bool) throws -> Data {
        let modelID = request.agent == nil ? try client.callModelID(request.model) : nil
        return Data(request.jsonValue(modelID: modelID, stream: stream).compactText.utf8)
    }

    /// One streamed request on the call path; a cut resumes by the position's id and event id.
    private func runStream(
        label: String, method: String, endpoint: GeminiEndpoint, body: Data?,
        position: LockedBox<GeminiInteractionStreamPosition>, retryPolicy: GeminiRetryPolicy?,
        continuation: AsyncThrowingStream<GeminiInteractionEvent, any Error>.Continuation
    ) async throws {
        var call = GeminiAPICall<Void>(
            label: label, method: method, namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in body }
        ) { http, _ in
            guard http.status == 200 else {
                let data = try await GeminiAPIClient.collectBody(of: http)
                throw GeminiInteractionErrorBody.classify(
                    status: http.status, headers: http.headers, body: data)
            }
            var reader = GeminiInteractionStreamReader(continuation: continuation, position: position)
            try await GeminiAPIClient.read(http.body, into: &reader)
        }
        call.streaming = true
        call.ownsDeadline = false
        call.resumeRoute = {
            let now = position.get()
            guard now.canResume, let id = now.id else { return nil }
            return ("GET", .interaction(id, stream: true, lastEventID: now.lastEventID))
        }
        _ = try await client.perform(Self.revised(call), retryPolicy: retryPolicy)
    }

    /// The schema revision every request pins (`Api-Revision`), so replies keep the shape
    /// this client decodes: Google's doc samples and its REST CLI send it; the SDKs stopped
    /// only because browsers' CORS preflight refuses the header (docs/interactions.md).
    public static let apiRevision = "2026-05-20"

    /// `call` with the `Api-Revision` header.
    static func revised<Reply>(_ call: GeminiAPICall<Reply>) -> GeminiAPICall<Reply> {
        var call = call
        call.headers["api-revision"] = apiRevision
        return call
    }

    /// A unary reply as an Interaction; a non-200 as its typed error.
    static func readInteraction(_ http: GeminiHTTPResponse) async throws -> GeminiInteraction {
        let data = try await GeminiAPIClient.collectBody(of: http)
        guard http.status == 200 else {
            throw GeminiInteractionErrorBody.classify(status: http.status, headers: http.headers, body: data)
        }
        guard let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) else {
            throw AttemptError(
                .transport(.badResponse, detail: "Undecodable reply: \(ReplyExcerpt.excerpt(data))"))
        }
        do {
            return try GeminiInteraction(json: value)
        } catch let error as GeminiError {
            throw AttemptError(error)
        }
    }
}

extension GeminiInteractions {
    /// The function-calling loop of docs/library.md ("Tools") over the Interactions API: the
    /// same loop as generateContent's (the same server, limit, order and events), each round an
    /// interaction created from `request` and `conversation` (continued by id, or the whole
    /// history when the conversation does not store), answers sent back as `function_result`
    /// steps in call order. Calls `server` does not serve end the loop, left pending in
    /// `conversation`.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far, ending with the user turn to answer.
    ///   - request: everything but the input: model, system instruction, tools, generation
    ///     config, response format; sent again every round (the API scopes them to one
    ///     interaction).
    ///   - server: answers the calls.
    ///   - maxToolRounds: interactions allowed; a reply with served calls in the last one
    ///     throws ``GeminiToolError/tooManyRounds(rounds:calls:)``.
    ///   - retryPolicy: overrides the configured policy for each request.
    ///   - onEvent: told before each request and after each reply, in order.
    /// - Returns: the last interaction, the summed usage and every call made.
    /// - Throws: ``GeminiToolError``, ``GeminiError``, or `CancellationError`.
    public func runTools(
        label: String, conversation: inout GeminiInteractionConversation, request: GeminiInteractionRequest,
        server: GeminiToolServer, maxToolRounds: Int = 10, retryPolicy: GeminiRetryPolicy? = nil,
        onEvent: (GeminiInteractionToolEvent) -> Void = { _ in }
    ) async throws -> GeminiInteractionToolRun {
        let loop = GeminiToolLoop<Result>(
            label: label, server: server, maxToolRounds: maxToolRounds,
            observer: client.configuration.observer)
        let outcome = try await loop.run(
            send: { round in
                onEvent(.sending(round: round))
                let result = try await create(
                    conversation.applied(to: request), label: label, retryPolicy: retryPolicy)
                conversation.record(result.interaction)
                return .init(
                    reply: result, pending: conversation.pendingCalls,
                    usage: result.interaction.usage?.metadata)
            },
            received: { round, reply, answering in
                onEvent(.received(round: round, result: reply.reply, answering: answering))
            },
            answer: { _, answers in try conversation.answer(answers) })
        return GeminiInteractionToolRun(
            interaction: outcome.last.reply.interaction, usage: outcome.usage, rounds: outcome.rounds,
            calls: outcome.calls, retryCount: outcome.last.reply.retryCount)
    }
}

/// What a tool loop over the Interactions API reports while it runs.
public enum GeminiInteractionToolEvent: Sendable {
    /// Round `round` (1-based: one interaction) is about to be created.
    case sending(round: Int)
    /// Round `round` was answered with `result`; `answering` tells whether its calls are
    /// answered next.
    case received(round: Int, result: GeminiInteractions.Result, answering: Bool)
}

/// What ``GeminiInteractions/runTools(label:conversation:request:server:maxToolRounds:retryPolicy:onEvent:)``
/// returns.
public struct GeminiInteractionToolRun: Sendable {
    /// The last interaction (its ``GeminiInteraction/outputText`` is the answer).
    public var interaction: GeminiInteraction
    /// Token counts summed over every round, under generateContent's names.
    public var usage: UsageMetadata
    /// Interactions made (one per round).
    public var rounds: Int
    /// Every function call the model made, in order.
    public var calls: [FunctionCall]
    /// Retries of the last round.
    public var retryCount: Int
}

/// The Interactions API's endpoints (docs/interactions.md), under `/v1beta/`.
extension GeminiEndpoint {
    /// `interactions`: create.
    static let interactions = GeminiEndpoint(path: "interactions")

    /// `interactions/ID`: get or delete; with `stream`, `?stream=true` and, when given,
    /// `&last_event_id=E` (resume after that event).
    static func interaction(_ id: String, stream: Bool = false, lastEventID: String? = nil) -> GeminiEndpoint
    {
        var query: [(String, String)] = []
        if stream {
            query.append(("stream", "true"))
            if let lastEventID { query.append(("last_event_id", lastEventID)) }
        }
        return GeminiEndpoint(path: "interactions/\(id)", query: query)
    }

    /// `interactions/ID/cancel`.
    static func cancelInteraction(_ id: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "interactions/\(id)/cancel")
    }
}
