import Foundation
import SophonCore

extension GeminiAPIClient {
    /// The Interactions API (docs/interactions.md; gemini-wire-format-3.md §1): create, get,
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
    /// only because browsers' CORS preflight refuses the header (gemini-wire-format-3.md §1.1).
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
