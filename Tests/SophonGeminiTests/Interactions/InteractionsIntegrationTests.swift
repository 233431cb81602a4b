import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonGemini

/// The Interactions API over real HTTP against scripts/fake_gemini.py (fake_interactions.py):
/// the wire format, streams and their resumption, errors, the tool loop, background jobs.
@Suite struct InteractionsIntegrationTests {
    struct Setup {
        let server: FakeGeminiServer
        let client: GeminiAPIClient
        let recorder: SleepRecorder
    }

    func setup(_ replies: [String] = [], policy: GeminiRetryPolicy = .default) throws -> Setup {
        let server = try FakeGeminiServer()
        _ = try server.control(
            "POST", "/_sophon/interactions",
            body: #"{"reset": true, "replies": [\#(replies.joined(separator: ","))]}"#)
        let recorder = SleepRecorder()
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: recorder, baseURL: server.baseURL))
        return Setup(server: server, client: client, recorder: recorder)
    }

    @Test func createSendsSnakeCaseAndReadsTheAnswer() async throws {
        let setup = try setup([#"{"text": "{\"title\": \"Dune\"}", "usage": {"input": 9, "output": 4}}"#])
        let request = GeminiInteractionRequest(
            input: .text("Title?"), systemInstruction: "Be terse.",
            generationConfig: GeminiInteractionGenerationConfig(maxOutputTokens: 64, thinkingLevel: "low"),
            responseFormat: GeminiInteractionRequest.jsonResponseFormat(
                schema: try JSONValue(parsing: #"{"type":"object","properties":{"title":{"type":"string"}}}"#)
            ))
        let result = try await setup.client.interactions.create(request)
        #expect(result.interaction.status == .completed)
        #expect(result.interaction.outputText == #"{"title": "Dune"}"#)
        #expect(
            result.interaction.usage
                == GeminiInteractionUsage(inputTokens: 9, outputTokens: 4, totalTokens: 13))
        let sent = try setup.server.requests()
        #expect(sent.map(\.path) == ["/v1beta/interactions"])
        #expect(
            sent[0].body.compactText
                == #"{"model":"gemini-3.8-flash","input":"Title?","system_instruction":"Be terse.","#
                + #""generation_config":{"max_output_tokens":64,"thinking_level":"low"},"#
                + #""response_format":{"type":"text","mime_type":"application/json","#
                + #""schema":{"type":"object","properties":{"title":{"type":"string"}}}}}"#)
    }

    @Test func aStreamIsAssembledIntoSteps() async throws {
        let setup = try setup([#"{"thought": "Thinking it over", "chunks": ["Hel", "lo ", "there"]}"#])
        var assembler = GeminiInteractionAssembler()
        var texts: [String] = []
        for try await event in setup.client.interactions.stream(GeminiInteractionRequest(input: .text("hi")))
        {
            assembler.add(event)
            if let text = event.textDelta { texts.append(text) }
        }
        #expect(texts == ["Hel", "lo ", "there"])
        #expect(assembler.isComplete)
        let interaction = assembler.interaction
        #expect(interaction.status == .completed)
        #expect(interaction.outputText == "Hello there")
        #expect(interaction.steps.map(\.type) == ["thought", "model_output"])
        #expect(
            interaction.steps[0].kind == .thought(signature: "sig-thought", summary: ["Thinking it over"]))
        #expect(interaction.usage?.totalTokens == 12)
        let sent = try setup.server.requests()
        #expect(sent[0].body["stream"] == .bool(true))
        #expect(sent[0].headers["accept"] == "text/event-stream")
    }

    @Test func aCutStreamIsResumedAfterItsLastEvent() async throws {
        let setup = try setup([#"{"text": "a resumed answer", "cutAfter": [3]}"#])
        var assembler = GeminiInteractionAssembler()
        for try await event in setup.client.interactions.stream(GeminiInteractionRequest(input: .text("hi")))
        {
            assembler.add(event)
        }
        #expect(assembler.interaction.outputText == "a resumed answer")
        let paths = try setup.server.paths()
        let id = assembler.id ?? ""
        #expect(
            paths == ["/v1beta/interactions", "/v1beta/interactions/\(id)?stream=true&last_event_id=evt_3"])
        #expect(setup.recorder.recorded.count == 1)
    }

    @Test func aStreamCutMoreTimesThanTheAttemptsEndsWithWhatArrived() async throws {
        let setup = try setup(
            [#"{"text": "abcdefgh", "chunks": ["ab", "cd", "ef", "gh"], "cutAfter": [2, 1, 1, 1]}"#],
            policy: .minimal)
        var failure: GeminiError?
        do {
            for try await _ in setup.client.interactions.stream(GeminiInteractionRequest(input: .text("hi")))
            {}
        } catch let error as GeminiError {
            failure = error
        }
        #expect(failure == .streamEndedEarly(partialText: "abcdef"))
        #expect(try setup.server.paths().count == 3)
    }

    @Test func aStringErrorCodeBecomesTheTypedError() async throws {
        let setup = try setup()
        var failure: GeminiError?
        do {
            _ = try await setup.client.interactions.create(
                GeminiInteractionRequest(input: .text("x"), previousInteractionID: "v1_gone"))
        } catch let error as GeminiError {
            failure = error
        }
        guard case .http(let status, let apiStatus, let message, _)? = failure else {
            Issue.record("expected an http error, got \(String(describing: failure))")
            return
        }
        #expect(status == 404)
        #expect(apiStatus == "not_found")
        #expect(message == "Interaction 'v1_gone' was not found.")
    }

    @Test func aRateLimitIsRetriedOnTheOnePath() async throws {
        let setup = try setup([#"{"fault": "rate_limit"}"#, #"{"text": "after the wait"}"#])
        let result = try await setup.client.interactions.create(GeminiInteractionRequest(input: .text("x")))
        #expect(result.interaction.outputText == "after the wait")
        #expect(result.retryCount == 1)
    }

    static let weather = FunctionDeclaration(
        name: "get_weather", description: "The weather of a city.",
        parameters: .object(properties: ["city": .string()], required: ["city"]))

    func runWeatherLoop(store: Bool) async throws -> (
        GeminiInteractionToolRun, [FakeGeminiServer.SeenRequest]
    ) {
        let setup = try setup([
            #"{"functionCalls": [{"id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}, {"id": "c2", "name": "get_weather", "arguments": {"city": "Oslo"}}]}"#
        ])
        let handler = GeminiFunctionHandler(Self.weather) { arguments in
            .object([JSONMember("city", arguments["city"] ?? .null), JSONMember("celsius", .integer(21))])
        }
        var conversation = GeminiInteractionConversation(store: store)
        try conversation.appendUser([.text("Weather in Paris and Oslo?")])
        let run = try await setup.client.interactions.runTools(
            label: "tools", conversation: &conversation,
            request: GeminiInteractionRequest(
                input: .text(""), systemInstruction: "Be brief.",
                tools: [GeminiInteractionRequest.functionTool(Self.weather)]),
            server: GeminiToolServer(handlers: [handler]))
        return (run, try setup.server.requests())
    }

    @Test func theToolLoopContinuesByIDAndResendsTheTools() async throws {
        let (run, sent) = try await runWeatherLoop(store: true)
        #expect(run.rounds == 2)
        #expect(run.calls.map(\.id) == ["c1", "c2"])
        #expect(
            run.interaction.outputText
                == #"Done: {"celsius": 21, "city": "Paris"}; {"celsius": 21, "city": "Oslo"}"#)
        #expect(sent.count == 2)
        let second = sent[1].body
        #expect(second["previous_interaction_id"]?.stringValue?.hasPrefix("v1_") == true)
        #expect(second["tools"] == sent[0].body["tools"])
        #expect(second["system_instruction"] == .string("Be brief."))
        #expect(
            second["input"]?.compactText
                == #"[{"type":"function_result","call_id":"c1","name":"get_weather","result":{"city":"Paris","celsius":21}},"#
                + #"{"type":"function_result","call_id":"c2","name":"get_weather","result":{"city":"Oslo","celsius":21}}]"#
        )
        #expect(
            sent[0].body["tools"]?.compactText
                == #"[{"type":"function","name":"get_weather","description":"The weather of a city.","#
                + #""parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]"#
        )
    }

    @Test func withoutStoreTheLoopResendsTheWholeHistory() async throws {
        let (run, sent) = try await runWeatherLoop(store: false)
        #expect(run.rounds == 2)
        let second = sent[1].body
        #expect(second["previous_interaction_id"] == nil)
        #expect(second["store"] == .bool(false))
        guard case .array(let steps)? = second["input"] else {
            Issue.record("input is not steps")
            return
        }
        #expect(
            steps.map { $0["type"]?.stringValue ?? "" }
                == ["user_input", "function_call", "function_call", "function_result", "function_result"])
    }

    @Test func aBackgroundAgentIsPolledUntilItCompletes() async throws {
        let setup = try setup()
        let started = try await setup.client.interactions.create(
            GeminiInteractionRequest(
                agent: "deep-research-preview-04-2026", input: .text("TPUs"), background: true))
        #expect(started.interaction.status == .inProgress)
        var statuses: [String] = []
        let done = try await setup.client.interactions.wait(started.interaction.id, every: .seconds(5)) {
            statuses.append("\($0.status):\($0.steps.count)")
        }
        #expect(statuses == ["in_progress:2", "in_progress:3", "in_progress:4", "completed:5"])
        #expect(setup.recorder.recorded == [.seconds(5), .seconds(5), .seconds(5)])
        #expect(done.outputText.hasPrefix("# Report\n\nTPUs"))
        #expect(
            done.sources == [
                GeminiInteractionSource(title: "Example source", url: "https://example.com/a"),
                GeminiInteractionSource(title: "Second source", url: "https://example.org/b"),
            ])
        let body = try setup.server.requests()[0].body
        #expect(body["agent"] == .string("deep-research-preview-04-2026"))
        #expect(body["model"] == nil)
        #expect(body["background"] == .bool(true))
    }

    @Test(arguments: ["requires_action", "incomplete", "budget_exceeded"])
    func pollingEndsAtEachEndStateAndRequiresActionGivesBackTheCallsInOrder(status: String) async throws {
        let reply =
            status == "requires_action"
            ? #"{"polls": 2, "functionCalls": [{"id": "c1", "name": "f", "arguments": {"x": 1}}, "#
                + #"{"id": "c2", "name": "g", "arguments": {}}]}"#
            : #"{"polls": 2, "status": "\#(status)"}"#
        let setup = try setup([reply])
        let started = try await setup.client.interactions.create(
            GeminiInteractionRequest(input: .text("go"), background: true))
        #expect(started.interaction.status == .inProgress)
        var statuses: [String] = []
        let done = try await setup.client.interactions.wait(started.interaction.id, every: .seconds(1)) {
            statuses.append($0.status.rawValue)
        }
        #expect(statuses == ["in_progress", status])
        #expect(done.status.rawValue == status)
        #expect(done.pendingCalls.map(\.id) == (status == "requires_action" ? ["c1", "c2"] : []))
        #expect(try setup.server.requests().count == 3)
    }

    @Test func aFailedJobCarriesItsErrorsAndCancelAndDeleteWork() async throws {
        let setup = try setup([#"{"fail": {"code": "internal", "message": "the agent crashed"}}"#])
        let agent = GeminiInteractionRequest(
            agent: "deep-research-preview-04-2026", input: .text("q"), background: true)
        let failing = try await setup.client.interactions.create(agent)
        let failed = try await setup.client.interactions.wait(failing.interaction.id, every: .seconds(1))
        #expect(failed.status == .failed)
        #expect(failed.errors == [GeminiInteractionError(code: "internal", message: "the agent crashed")])
        let running = try await setup.client.interactions.create(agent)
        let cancelled = try await setup.client.interactions.cancel(running.interaction.id)
        #expect(cancelled.status == .cancelled)
        try await setup.client.interactions.delete(running.interaction.id)
        let paths = try setup.server.requests().suffix(2).map { "\($0.method) \($0.path)" }
        #expect(
            paths == [
                "POST /v1beta/interactions/\(running.interaction.id)/cancel",
                "DELETE /v1beta/interactions/\(running.interaction.id)",
            ])
    }

    @Test func aStreamedFunctionCallIsAssembledFromItsArgumentFragments() async throws {
        let setup = try setup([
            #"{"functionCalls": [{"id": "c9", "name": "f", "arguments": {"city": "Shanghai"}}]}"#
        ])
        var assembler = GeminiInteractionAssembler()
        for try await event in setup.client.interactions.stream(GeminiInteractionRequest(input: .text("go")))
        {
            assembler.add(event)
        }
        #expect(assembler.status == .requiresAction)
        #expect(
            assembler.interaction.pendingCalls
                == [
                    FunctionCall(
                        id: "c9", name: "f", args: .object([JSONMember("city", .string("Shanghai"))]))
                ])
    }
}
