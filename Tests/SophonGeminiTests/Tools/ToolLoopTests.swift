import Foundation
import SophonCore
import Synchronization
import Testing

@testable import SophonGemini

/// Automatic function calling and the exact-history conversation (docs/library.md, "Tools"),
/// over the scripted transport.
@Suite struct ToolLoopTests {
    static let weather = FunctionDeclaration(
        name: "get_weather", description: "Current weather for one city",
        parameters: try! GeminiSchema.parseSpec("{ city: string }"))

    static func reply(
        _ parts: String,
        usage: String = #"{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}"#
    )
        -> ScriptedTransport.Reply
    {
        .json(
            200,
            #"{"candidates": [{"content": {"role": "model", "parts": \#(parts)}, "finishReason": "STOP"}], "usageMetadata": \#(usage)}"#
        )
    }

    static func client(_ replies: [ScriptedTransport.Reply]) -> (GeminiAPIClient, ScriptedTransport) {
        let transport = ScriptedTransport(replies)
        return (
            GeminiAPIClient(configuration: .testing(recorder: SleepRecorder()), transport: transport),
            transport
        )
    }

    /// `value` with every object's members sorted by key.
    static func sortedKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.map { JSONMember($0.key, sortedKeys($0.value)) }.sorted { $0.key < $1.key })
        case .array(let elements): .array(elements.map(sortedKeys))
        default: value
        }
    }

    static func body(_ request: GeminiHTTPRequest) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: request.body ?? Data(), as: UTF8.self))
    }

    /// Two calls in one answer: both handlers run at once (each waits for the other to start),
    /// the answers go back in call order with the calls' ids, and the usage is summed.
    @Test(.timeLimit(.minutes(1))) func aParallelRoundIsAnsweredInCallOrderWithIds() async throws {
        let (client, transport) = Self.client([
            Self.reply(
                #"[{"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lH/+=="}, {"functionCall": {"id": "fc-2", "name": "get_weather", "args": {"city": "Bergen"}}}]"#
            ),
            Self.reply(#"[{"text": "Bergen is warmer."}]"#),
        ])
        let started = Mutex<Set<String>>([])
        let handler = GeminiFunctionHandler(Self.weather) { arguments in
            let city = arguments["city"]?.stringValue ?? ""
            started.withLock { _ = $0.insert(city) }
            while started.withLock({ $0.count }) < 2 { await Task.yield() }
            return .object([JSONMember("temp_c", .integer(city == "Oslo" ? 4 : 7))])
        }
        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "t", conversation: &conversation, prompt: [.text("Oslo or Bergen?")], handlers: [handler])
        #expect(run.text == "Bergen is warmer.")
        #expect(run.rounds == 2)
        #expect(run.calls.map(\.id) == ["fc-1", "fc-2"])
        #expect(run.usage.totalTokenCount == 30)
        #expect(run.usage.promptTokenCount == 20)
        let second = try Self.body(transport.requests[1])
        #expect(
            second["contents"]
                == (try JSONValue(
                    parsing: #"""
                        [{"role": "user", "parts": [{"text": "Oslo or Bergen?"}]},
                         {"role": "model", "parts": [
                           {"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lH/+=="},
                           {"functionCall": {"id": "fc-2", "name": "get_weather", "args": {"city": "Bergen"}}}]},
                         {"role": "user", "parts": [
                           {"functionResponse": {"id": "fc-1", "name": "get_weather", "response": {"temp_c": 4}}},
                           {"functionResponse": {"id": "fc-2", "name": "get_weather", "response": {"temp_c": 7}}}]}]
                        """#)))
        #expect(conversation.history.count == 4)
        #expect(conversation.pendingCalls.isEmpty)
    }

    /// Each round is reported through the observer: the calls it returned and that request's
    /// usage; the final answer is a round with no calls.
    @Test func eachRoundIsReportedThroughTheObserver() async throws {
        let transport = ScriptedTransport([
            Self.reply(
                #"[{"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Oslo"}}}]"#,
                usage: #"{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}"#),
            Self.reply(
                #"[{"text": "Cold."}]"#,
                usage: #"{"promptTokenCount": 30, "candidatesTokenCount": 2, "totalTokenCount": 32}"#),
        ])
        let rounds = Mutex<[String]>([])
        var configuration = GeminiClientConfiguration.testing(recorder: SleepRecorder())
        configuration.observer = { event in
            guard case .toolRound(let label, let round, let calls, let usage) = event else { return }
            let names = calls.map { "\($0.id ?? "-") \($0.name) \($0.args?.compactText ?? "{}")" }
            rounds.withLock {
                $0.append(
                    "\(label) \(round) [\(names.joined(separator: ", "))] \(usage?.totalTokenCount ?? -1)")
            }
        }
        let client = GeminiAPIClient(configuration: configuration, transport: transport)
        let handler = GeminiFunctionHandler(Self.weather) { _ in .object([JSONMember("temp_c", .integer(4))])
        }
        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "weather", conversation: &conversation, prompt: [.text("Oslo?")], handlers: [handler])
        #expect(run.text == "Cold.")
        #expect(
            rounds.withLock { $0 } == [
                #"weather 1 [fc-1 get_weather {"city":"Oslo"}] 15"#, "weather 2 [] 32",
            ])
    }

    /// A thrown error and a schema violation go back to the model as `{"error"}`; the
    /// violating call never reaches the handler.
    @Test func handlerErrorsAndViolationsGoBackToTheModel() async throws {
        struct StationOffline: Error, CustomStringConvertible {
            var description: String { "station offline" }
        }
        let (client, transport) = Self.client([
            Self.reply(
                #"[{"functionCall": {"id": "a", "name": "get_weather", "args": {"city": "Oslo"}}}, {"functionCall": {"id": "b", "name": "get_weather", "args": {"town": "Bergen"}}}]"#
            ),
            Self.reply(#"[{"text": "Sorry, no data."}]"#),
        ])
        let calledWith = Mutex<[JSONValue]>([])
        let handler = GeminiFunctionHandler(Self.weather) { arguments in
            calledWith.withLock { $0.append(arguments) }
            throw StationOffline()
        }
        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "t", conversation: &conversation, prompt: [.text("Weather?")], handlers: [handler])
        #expect(run.text == "Sorry, no data.")
        #expect(calledWith.withLock { $0 } == [try JSONValue(parsing: #"{"city": "Oslo"}"#)])
        let answers = try Self.body(transport.requests[1])["contents"]?[2]?["parts"]
        #expect(
            answers?[0]?["functionResponse"]?["response"]
                == (try JSONValue(parsing: #"{"error": "station offline"}"#)))
        let violation = answers?[1]?["functionResponse"]?["response"]?["error"]?.stringValue ?? ""
        #expect(violation.hasPrefix("invalid arguments: "))
    }

    /// A typed handler reads its arguments leniently.
    @Test func aTypedHandlerDecodesLeniently() async throws {
        struct Arguments: Decodable, Sendable { var city: String; var days: Int }
        struct Forecast: Encodable, Sendable { var city: String; var days: Int }
        let declaration = FunctionDeclaration(
            name: "forecast", parameters: try GeminiSchema.parseSpec("{ city: string, days: string }"))
        let (client, transport) = Self.client([
            Self.reply(#"[{"functionCall": {"name": "forecast", "args": {"city": "Oslo", "days": "3"}}}]"#),
            Self.reply(#"[{"text": "ok"}]"#),
        ])
        let handler = GeminiFunctionHandler.typed(declaration, Arguments.self) {
            Forecast(city: $0.city, days: $0.days)
        }
        var conversation = GeminiConversation()
        _ = try await client.generateWithTools(
            label: "t", conversation: &conversation, prompt: [.text("Forecast?")], handlers: [handler])
        let answer = try Self.body(transport.requests[1])["contents"]?[2]?["parts"]?[0]
        #expect(
            answer
                == (try JSONValue(
                    parsing:
                        #"{"functionResponse": {"name": "forecast", "response": {"city": "Oslo", "days": 3}}}"#
                )))
    }

    @Test func maxToolRoundsReachedIsATypedErrorWithTheCalls() async throws {
        let call = #"[{"functionCall": {"id": "x", "name": "get_weather", "args": {"city": "Oslo"}}}]"#
        let (client, transport) = Self.client([Self.reply(call), Self.reply(call), Self.reply(call)])
        let handler = GeminiFunctionHandler(Self.weather) { _ in .integer(1) }
        var conversation = GeminiConversation()
        await #expect(
            throws: GeminiToolError.tooManyRounds(
                rounds: 2,
                calls: [
                    FunctionCall(
                        id: "x", name: "get_weather", args: .object([JSONMember("city", .string("Oslo"))])),
                    FunctionCall(
                        id: "x", name: "get_weather", args: .object([JSONMember("city", .string("Oslo"))])),
                ])
        ) {
            try await client.generateWithTools(
                label: "t", conversation: &conversation, prompt: [.text("Weather?")], handlers: [handler],
                maxToolRounds: 2)
        }
        #expect(transport.requests.count == 2)
        #expect(conversation.pendingCalls.count == 1)
    }

    /// A user turn while calls are pending is refused before anything is sent.
    @Test func unansweredCallsAreRefusedLocally() async throws {
        var conversation = GeminiConversation()
        try conversation.appendUser([.text("Weather?")])
        conversation.appendModel(
            Content(role: "model", parts: [Part(functionCall: FunctionCall(id: "c", name: "get_weather"))]))
        let (client, transport) = Self.client([Self.reply(#"[{"text": "never"}]"#)])
        await #expect(throws: GeminiToolError.unansweredCalls([FunctionCall(id: "c", name: "get_weather")])) {
            try await client.generateWithTools(
                label: "t", conversation: &conversation, prompt: [.text("And Oslo?")], handlers: [])
        }
        #expect(transport.requests.isEmpty)
        #expect(throws: GeminiToolError.answerCountMismatch(expected: 1, given: 2)) {
            try conversation.answer([.integer(1), .integer(2)])
        }
        try conversation.answer([.string("sunny")])
        #expect(
            conversation.history.last
                == Content(
                    role: "user",
                    parts: [
                        Part(
                            functionResponse: FunctionResponse(
                                id: "c", name: "get_weather",
                                response: .object([JSONMember("result", .string("sunny"))])))
                    ]))
    }

    /// Tool finish reasons are typed errors with the finish message, not retried.
    @Test func aMalformedFunctionCallIsATypedErrorNotRetried() async throws {
        let (client, transport) = Self.client([
            .json(
                200,
                #"{"candidates": [{"content": {}, "finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: print(x"}]}"#
            ),
            Self.reply(#"[{"text": "never"}]"#),
        ])
        var conversation = GeminiConversation()
        await #expect(
            throws: GeminiError.toolCallFailed(
                reason: .malformedFunctionCall, finishMessage: "Malformed function call: print(x")
        ) {
            try await client.generateWithTools(
                label: "t", conversation: &conversation, prompt: [.text("Weather?")], handlers: [])
        }
        #expect(transport.requests.count == 1)
    }

    /// Calls to a request that declared no tools come back as calls, never as an empty answer.
    @Test func callsToARequestWithoutToolsAreReturnedAsCalls() async throws {
        let (client, _) = Self.client([Self.reply(#"[{"functionCall": {"name": "now"}}]"#)])
        let result = try await client.sendRequest(label: "t") { _ in
            GenerateContentRequest(contents: [.user("What time is it?")])
        }
        #expect(
            result.response.candidates?.first?.content?.parts?.compactMap(\.functionCall) == [
                FunctionCall(name: "now")
            ])
    }

    /// docs/library.md, "Tools and function calling": the typed weather tool, line for line.
    @Test func theGuideSampleRunsTheTypedWeatherTool() async throws {
        let (client, transport) = Self.client([
            Self.reply(#"[{"functionCall": {"id": "w1", "name": "get_weather", "args": {"city": "Oslo"}}}]"#),
            Self.reply(#"[{"text": "It is 4 °C in Oslo."}]"#),
        ])
        struct WeatherQuery: Decodable, Sendable { var city: String }
        struct Weather: Encodable, Sendable { var tempC: Int }

        let weather = GeminiFunctionHandler.typed(
            FunctionDeclaration(
                name: "get_weather", description: "Current weather for one city",
                parameters: try GeminiSchema.parseSpec("{ city: string }")),
            WeatherQuery.self
        ) { query in Weather(tempC: query.city == "Oslo" ? 4 : 18) }

        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "weather", conversation: &conversation, prompt: [.text("Weather in Oslo?")],
            handlers: [weather])
        #expect(run.text == "It is 4 °C in Oslo.")
        #expect(run.rounds == 2)
        #expect(run.usage.totalTokenCount == 30)
        let answer = try Self.body(transport.requests[1])["contents"]?[2]?["parts"]?[0]?["functionResponse"]
        #expect(
            answer
                == (try JSONValue(parsing: #"{"id": "w1", "name": "get_weather", "response": {"tempC": 4}}"#))
        )
    }

    /// A part kind the client does not know is kept whole and sent back unchanged.
    @Test func unknownPartKindsAreKeptWholeAndSentBack() async throws {
        let parts =
            #"[{"toolCall": {"id": "tc-1", "toolType": "GOOGLE_SEARCH_WEB", "args": {"q": "oslo"}}, "thoughtSignature": "c2ln"}, "#
            + #"{"functionCall": {"id": "f", "name": "get_weather", "args": {"city": "Oslo"}}}]"#
        let (client, transport) = Self.client([Self.reply(parts), Self.reply(#"[{"text": "done"}]"#)])
        let handler = GeminiFunctionHandler(Self.weather) { _ in .integer(4) }
        var conversation = GeminiConversation()
        _ = try await client.generateWithTools(
            label: "t", conversation: &conversation, prompt: [.text("Weather?")], handlers: [handler])
        #expect(conversation.history[1].parts?.first?.unknownKinds == ["toolCall"])
        let sent = try Self.body(transport.requests[1])["contents"]?[1]?["parts"]
        // Same members and values; key order inside a kept object is not preserved by JSONDecoder.
        #expect(sent.map(Self.sortedKeys) == Self.sortedKeys(try JSONValue(parsing: parts)))
    }

    /// A tape's `{"tool": ...}` lines are read as tool calls, not exchanges.
    @Test func tapeToolLinesAreReadInCallOrder() throws {
        let tape = try GeminiTape(
            parsing: """
                {"sophonTape": 1}
                {"tool": {"name": "now", "args": {}, "server": "time", "result": {"content": "12:00"}}}
                {"tool": {"name": "now", "args": {}, "server": "time", "error": "timed out"}}

                """)
        #expect(tape.exchanges.isEmpty)
        #expect(tape.toolCalls.map { $0["server"] } == [.string("time"), .string("time")])
        #expect(tape.toolCalls.last?["error"] == .string("timed out"))
    }
}
