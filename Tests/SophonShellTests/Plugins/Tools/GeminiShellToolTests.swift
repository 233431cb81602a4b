import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tools end to end (docs/commands.md, "Tools"): the real binary against scripts/fake_gemini.py
/// over HTTP, which refuses the histories the API refuses.
@Suite(.childSlots) struct GeminiShellToolTests {
    static let declare = #"tool get_weather { city: string } "Current weather for one city""#
    static let parallel =
        #"{"kind": "generate", "thoughtSignature": "U0lHLTE=", "functionCalls": ["#
        + #"{"id": "fc-1", "name": "get_weather", "args": {"city": "Paris"}}, "#
        + #"{"id": "fc-2", "name": "get_weather", "args": {"city": "Oslo"}}]}"#

    /// `tokens` counts what `ask` sends, from the one turn builder: the same tools, safety and
    /// fitted settings inside `generateContentRequest` (issue 24: it sent neither).
    @Test func tokensCountsTheRequestAskSends() async throws {
        let shell = try await GeminiShell()
        let settings = [
            "-c", "tool f { a: string }", "-c", "set safety HARM_CATEGORY_HARASSMENT=BLOCK_ONLY_HIGH", "-c",
            "set model gemini-2.5-flash", "-c", "set presence-penalty 0.5", "-c", "set thinking low",
        ]
        let outcome = try await shell.run(settings + ["-c", "tokens hi"])
        #expect(outcome.status == 0)
        let sent = try #require(try await shell.server.requests().last)
        #expect(sent.path == "/v1beta/models/gemini-2.5-flash:countTokens")
        let expected = try JSONValue(
            parsing: #"""
                {"generateContentRequest": {"model": "models/gemini-2.5-flash",
                 "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                 "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT",
                   "properties": {"a": {"type": "STRING"}}, "required": ["a"], "propertyOrdering": ["a"]}}]}],
                 "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}],
                 "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}}
                """#)
        #expect(sent.body == expected)
    }

    /// `tool NAME {}`: an empty parameters object declares a function without arguments, as
    /// `tool NAME` does (the API refuses an OBJECT without properties as `parameters`).
    @Test func anEmptyObjectDeclaresAFunctionWithoutArguments() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "tool now {}", "-c", #"tool later { } "When it is""#, "-c", "tool show now", "-c",
            "tool show later",
        ])
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                {
                  "name": "now"
                }
                {
                  "name": "later",
                  "description": "When it is"
                }

                """)
        #expect(outcome.status == 0)
    }

    @Test func declarationsAreListedAndShownExactlyAsSent() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", Self.declare, "-c", "tool now", "-c", "set tools search,code", "-c", "tools", "-c",
            "tool show get_weather", "-c", "tool clear now", "-c", "tools",
        ])
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                get_weather  function  nobody (tool-reply)  Current weather for one city
                now          function  nobody (tool-reply)
                code         built-in  Google  code execution
                search       built-in  Google  Google Search
                {
                  "name": "get_weather",
                  "description": "Current weather for one city",
                  "parameters": {
                    "type": "OBJECT",
                    "properties": {
                      "city": {
                        "type": "STRING"
                      }
                    },
                    "required": [
                      "city"
                    ],
                    "propertyOrdering": [
                      "city"
                    ]
                  }
                }
                get_weather  function  nobody (tool-reply)  Current weather for one city
                code         built-in  Google  code execution
                search       built-in  Google  Google Search

                """)
        #expect(outcome.status == 0)
    }

    /// `tool NAME SPEC` declares NAME even when it is near a subcommand (a function may be
    /// called that); when the rest fits the subcommand (`show NAME`, `clear [NAME]`), a note on
    /// stderr says which one and how to take the declaration back.
    @Test func aNameNearASubcommandIsDeclaredWithANote() async throws {
        let outcome = try await SophonProcess.run([
            "-c", "tool shw x", "-c", "tool clar", "-c", "tool shop { item: string }", "-c",
            "tool SHOW get_weather",
            "-c", "tools",
        ])
        #expect(
            outcome
                == .init(
                    stdout: """
                        shw   function  nobody (tool-reply)
                        clar  function  nobody (tool-reply)
                        shop  function  nobody (tool-reply)
                        SHOW  function  nobody (tool-reply)

                        """,
                    stderr: """
                        note: tool: declared a function named 'shw' (did you mean 'tool show x'?); 'tool clear shw' removes it
                        note: tool: declared a function named 'clar' (did you mean 'tool clear'?); 'tool clear clar' removes it
                        note: tool: declared a function named 'SHOW' (did you mean 'tool show get_weather'?); 'tool clear SHOW' removes it

                        """, status: 0))
    }

    @Test func badDeclarationsAndSettingsAreTypedErrors() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "--json", "-c", "tool 9bad { a: string }", "-c", "tool show nope", "-c", "tool f [string]", "-c",
            "set tool-mode sometimes", "-c", "set tool-rounds 0", "-c", "set tools code,maps", "-c",
            "set tool-timeout 0s",
        ])
        let kinds = outcome.stdout.split(separator: "\n").compactMap {
            try? JSONValue(parsing: String($0))["error"]?["kind"]?.stringValue
        }
        #expect(
            kinds == [
                "usage", "unknownTool", "schemaError", "invalidSetting", "invalidSetting", "invalidSetting",
                "invalidSetting",
            ])
        #expect(
            outcome.stderr.contains("-c:2:1: error: tool show: no tool named 'nope' (none is declared)\n"))
        #expect(
            outcome.stderr.contains(
                "-c:7:1: error: set tool-timeout: expected a positive duration up to a year, such as 30s or 2m, got '0s'\n"
            )
        )
        #expect(outcome.status == 1)
    }

    @Test func aCallIsTheResultAndToolReplySendsTheAnswerWithTheSignature() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "thoughtSignature": "U0lHLTE=", "functionCalls": [{"id": "fc-1", "name": "get_weather", "args": {"city": "Paris"}}]}"#,
            #"{"kind": "generate", "text": "It is 18 C in Paris."}"#,
        ])
        let script = try shell.write(
            "weather.sophon",
            """
            \(Self.declare)
            ask Weather in Paris?
            expect ${last.functionCalls[0].name} == get_weather
            expect ${last.functionCalls[0].args.city} == Paris
            chat Never mind
            ask Something else
            tool-reply get_weather {"temp_c": 18}
            expect $last contains 18

            """)
        let outcome = try await shell.run([script])
        #expect(
            outcome.stdout == """
                {
                  "functionCalls": [
                    {
                      "id": "fc-1",
                      "name": "get_weather",
                      "args": {
                        "city": "Paris"
                      }
                    }
                  ]
                }
                It is 18 C in Paris.
                3 passed, 0 failed

                """)
        let pending =
            "function calls are pending: get_weather; answer them with 'tool-reply NAME JSON' or drop them with 'reset'"
        #expect(
            outcome.stderr == "\(script):5: error: chat: \(pending)\n\(script):6: error: ask: \(pending)\n")
        #expect(outcome.status == 1)
        let requests = try await shell.server.requests()
        #expect(requests.count == 2)
        let expected = try JSONValue(
            parsing: """
                [{"role": "user", "parts": [{"text": "Weather in Paris?"}]},
                 {"role": "model", "parts": [{"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Paris"}},
                                              "thoughtSignature": "U0lHLTE="}]},
                 {"role": "user", "parts": [{"functionResponse": {"id": "fc-1", "name": "get_weather", "response": {"temp_c": 18}}}]}]
                """)
        #expect(requests.last?.body["contents"] == expected)
        #expect(
            requests.first?.body["tools"]
                == (try JSONValue(
                    parsing: #"""
                        [{"functionDeclarations": [{"name": "get_weather", "description": "Current weather for one city",
                          "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}},
                                         "required": ["city"], "propertyOrdering": ["city"]}}]}]
                        """#)))
        #expect(requests.first?.body["toolConfig"] == nil)
    }

    @Test func parallelCallsAreAnsweredInCallOrderWithTheirIdsAndJoinTheChat() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.parallel, #"{"kind": "generate", "text": "Paris 18, Oslo 4."}"#])
        let outcome = try await shell.run([
            "-c", Self.declare, "-c", "set tool-mode any", "-c", "chat Weather in Paris and Oslo?", "-c",
            #"tool-reply {"x": 1}"#, "-c", "tool-reply nope 1", "-c",
            #"tool-reply get_weather {"temp_c": 18}"#,
            "-c", "tool-reply get_weather 4", "-c", "history", "-c", "tool-reply 1",
        ])
        #expect(
            outcome.stderr == """
                -c:4:1: error: tool-reply: 2 calls are pending (get_weather, get_weather); name the one to answer: tool-reply NAME JSON
                -c:5:1: error: tool-reply: no pending call of 'nope' (pending: get_weather, get_weather)
                -c:9:1: error: tool-reply: no function calls are pending

                """)
        #expect(
            outcome.stdout.hasSuffix(
                """
                Paris 18, Oslo 4.
                user: Weather in Paris and Oslo?
                model: [call get_weather {"city":"Paris"}][call get_weather {"city":"Oslo"}]
                user: [response get_weather {"temp_c":18}][response get_weather {"result":4}]
                model: Paris 18, Oslo 4.

                """))
        #expect(outcome.status == 1)
        let last = try #require(try await shell.server.requests().last)
        #expect(
            last.body["contents"]?[2]
                == (try JSONValue(
                    parsing: """
                        {"role": "user", "parts": [
                          {"functionResponse": {"id": "fc-1", "name": "get_weather", "response": {"temp_c": 18}}},
                          {"functionResponse": {"id": "fc-2", "name": "get_weather", "response": {"result": 4}}}]}
                        """)))
        #expect(
            last.body["toolConfig"]
                == (try JSONValue(parsing: #"{"functionCallingConfig": {"mode": "ANY"}}"#)))
    }

    /// `tool-reply NAME JSON` takes the JSON raw: `"sunny"` is a JSON string (the shell took
    /// its quotes), wrapped as `{"result": "sunny"}` like every non-object value.
    @Test func aQuotedStringAnswerIsAJSONString() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.parallel, #"{"kind": "generate", "text": "Sunny, then cold."}"#])
        let outcome = try await shell.run([
            "-c", Self.declare, "-c", "ask Weather in Paris and Oslo?", "-c",
            #"tool-reply get_weather "sunny""#, "-c", "tool-reply get_weather 'cold'",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.hasSuffix("Sunny, then cold.\n"))
        #expect(outcome.status == 0)
        let last = try #require(try await shell.server.requests().last)
        #expect(
            last.body["contents"]?[2]
                == (try JSONValue(
                    parsing: """
                        {"role": "user", "parts": [
                          {"functionResponse": {"id": "fc-1", "name": "get_weather", "response": {"result": "sunny"}}},
                          {"functionResponse": {"id": "fc-2", "name": "get_weather", "response": {"result": "cold"}}}]}
                        """)))
    }

    @Test func resetDropsPendingCallsAndACallWithoutIdOmitsIt() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"name": "now"}]}"#,
            #"{"kind": "generate", "text": "Hi."}"#,
        ])
        // No tool declared: the calls still come back as calls, never as an empty answer.
        let outcome = try await shell.run([
            "-c", "set output raw", "-c", "chat What time is it?", "-c", "reset", "-c", "chat hi",
        ])
        #expect(outcome.stdout == "{\"functionCalls\":[{\"name\":\"now\",\"args\":{}}]}\nHi.\n")
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let last = try #require(try await shell.server.requests().last)
        #expect(
            last.body["contents"]
                == (try JSONValue(parsing: #"[{"role": "user", "parts": [{"text": "hi"}]}]"#)))
    }

    @Test func codeExecutionPrintsOnStderrAndSourcesAfterTheAnswer() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "text": "The sum is 55.", "code": [{"code": "print(sum(range(11)))\n", "output": "55\n"}], "sources": [{"title": "example.org", "uri": "https://example.org/a"}, {"title": "yr.no", "uri": "https://yr.no/b"}]}"#,
            #"{"kind": "generate", "text": "The sum is 55.", "code": [{"code": "print(55)"}], "sources": [{"title": "yr.no", "uri": "https://yr.no/b"}]}"#,
        ])
        let outcome = try await shell.run([
            "-c", "set tools code,search", "-c", "ask Sum 0..10", "-c", "show sources",
        ])
        #expect(
            outcome.stdout == """
                The sum is 55.
                Sources:
                [1] example.org https://example.org/a
                [2] yr.no https://yr.no/b
                Sources:
                [1] example.org https://example.org/a
                [2] yr.no https://yr.no/b

                """)
        #expect(outcome.stderr == "code (PYTHON):\nprint(sum(range(11)))\noutput (OUTCOME_OK):\n55\n")
        #expect(outcome.status == 0)
        let request = try #require(try await shell.server.requests().first)
        #expect(
            request.body["tools"]
                == (try JSONValue(parsing: #"[{"codeExecution": {}}, {"googleSearch": {}}]"#)))
        let json = try await shell.run(["--json", "-c", "set tools code,search", "-c", "ask Sum"])
        let envelope = try JSONValue(parsing: String(json.stdout.split(separator: "\n").last ?? ""))
        #expect(envelope["result"] == .string("The sum is 55."))
        #expect(
            envelope["code"]
                == (try JSONValue(
                    parsing:
                        #"[{"language": "PYTHON", "code": "print(55)"}, {"outcome": "OUTCOME_OK", "output": ""}]"#
                )))
        #expect(
            envelope["sources"]
                == (try JSONValue(parsing: #"[{"title": "yr.no", "uri": "https://yr.no/b"}]"#)))
        #expect(envelope["usage"]?["totalTokens"] == .integer(11))
    }

    /// Without `set tools`, code and sources in a reply print the same way, streamed or not
    /// (PRODUCT.md §6 ties them to the answer, not to who turned the tool on).
    @Test(arguments: ["on", "off"])
    func codeAndSourcesPrintWithoutToolsToo(stream: String) async throws {
        let shell = try await GeminiShell()
        let reply =
            #"{"kind": "generate", "text": "The sum is 55.", "code": [{"code": "print(55)", "output": "55\n"}], "sources": [{"title": "yr.no", "uri": "https://yr.no/b"}]}"#
        try await shell.server.script([reply, reply])
        let outcome = try await shell.run([
            "-c", "set stream \(stream)", "-c", "ask Sum", "-c", "show sources",
        ])
        #expect(
            outcome.stdout == """
                The sum is 55.
                Sources:
                [1] yr.no https://yr.no/b
                Sources:
                [1] yr.no https://yr.no/b

                """)
        #expect(outcome.stderr == "code (PYTHON):\nprint(55)\noutput (OUTCOME_OK):\n55\n")
        #expect(outcome.status == 0)
        let json = try await shell.run(["--json", "-c", "set stream \(stream)", "-c", "ask Sum"])
        let envelope = try JSONValue(parsing: String(json.stdout.split(separator: "\n").last ?? ""))
        #expect(envelope["result"] == .string("The sum is 55."))
        #expect(
            envelope["code"]
                == (try JSONValue(
                    parsing:
                        #"[{"language": "PYTHON", "code": "print(55)"}, {"outcome": "OUTCOME_OK", "output": "55\n"}]"#
                )))
        #expect(
            envelope["sources"]
                == (try JSONValue(parsing: #"[{"title": "yr.no", "uri": "https://yr.no/b"}]"#)))
    }

    /// A chat turn goes back to the model the same whether its answer streamed or not: the code
    /// steps, the text, and nothing else (the one reading of a whole answer, `AskTurn`).
    @Test func aChatTurnWithCodeGoesBackTheSameStreamedOrNot() async throws {
        var sent: [String: JSONValue] = [:]
        for stream in ["on", "off"] {
            let shell = try await GeminiShell()
            try await shell.server.script([
                #"{"kind": "generate", "text": "The sum is 55.", "code": [{"code": "print(55)", "output": "55\n"}]}"#,
                #"{"kind": "generate", "text": "Yes."}"#,
            ])
            let outcome = try await shell.run([
                "-c", "set stream \(stream)", "-c", "chat Sum", "-c", "chat Sure?",
            ])
            #expect(outcome.stdout == "The sum is 55.\nYes.\n")
            #expect(outcome.status == 0)
            let requests = try await shell.server.requests()
            #expect(requests.count == 2)
            sent[stream] = requests.last?.body["contents"]?[1]
        }
        #expect(
            sent["on"]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "model", "parts": [{"executableCode": {"language": "PYTHON", "code": "print(55)"}},
                          {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "55\n"}}, {"text": "The sum is 55."}]}
                        """#)))
        #expect(sent["on"] == sent["off"])
    }

    /// Code steps beside calls to a request without tools print once, streamed or not.
    @Test(arguments: ["on", "off"])
    func codeBesideCallsPrintsOnce(stream: String) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "code": [{"code": "print(55)", "output": "55\n"}], "functionCalls": [{"name": "f", "args": {}}]}"#
        ])
        let outcome = try await shell.run(["-c", "set stream \(stream)", "-c", "ask Sum"])
        #expect(outcome.stderr == "code (PYTHON):\nprint(55)\noutput (OUTCOME_OK):\n55\n")
        #expect(
            outcome.stdout == """
                {
                  "functionCalls": [
                    {
                      "name": "f",
                      "args": {}
                    }
                  ]
                }

                """)
        #expect(outcome.status == 0)
    }

    @Test func aMalformedFunctionCallIsATypedErrorWithTheFinishMessage() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "emptyContent": true, "finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: print(default_api.get_weather(city=))"}"#
        ])
        let outcome = try await shell.run(["-c", Self.declare, "-c", "ask Weather?"])
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "-c:2:1: error: The model's function call failed (MALFORMED_FUNCTION_CALL). Malformed function call: print(default_api.get_weather(city=))\n"
        )
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().count == 1)
    }

    /// The fake server refuses, as the API does, a history whose calls are not all answered.
    @Test func theFakeServerRefusesAHistoryWithAnUnansweredCall() async throws {
        let shell = try await GeminiShell()
        var request = URLRequest(
            url: try #require(
                URL(string: shell.server.baseURLText + "/v1beta/models/gemini-3.8-flash:generateContent")))
        request.httpMethod = "POST"
        request.setValue("test-key", forHTTPHeaderField: "x-goog-api-key")
        request.httpBody = Data(
            #"""
            {"contents": [{"role": "user", "parts": [{"text": "Weather?"}]},
             {"role": "model", "parts": [{"functionCall": {"id": "a", "name": "w"}}, {"functionCall": {"id": "b", "name": "w"}}]},
             {"role": "user", "parts": [{"functionResponse": {"id": "a", "name": "w", "response": {}}}]}]}
            """#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        let body = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        #expect(
            body["error"]?["message"]
                == .string(
                    "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
                ))
        #expect(body["error"]?["status"] == .string("INVALID_ARGUMENT"))
    }

    /// `examples/tools.sophon` replayed from its tape, without a server: the golden output.
    @Test func theToolsExampleReplaysFromItsTape() async throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let examples = folder.appendingPathComponent("../../../../examples").standardizedFileURL
        let shell = try await GeminiShell()
        shell.server.stop()
        let outcome = try await shell.run([
            "--replay", examples.appendingPathComponent("tools.tape").path,
            examples.appendingPathComponent("tools.sophon").path,
        ])
        let expected = """
            get_weather  function  nobody (tool-reply)  Current weather for one city
            {
              "functionCalls": [
                {
                  "id": "fc-p4q2",
                  "name": "get_weather",
                  "args": {
                    "city": "Paris"
                  }
                }
              ]
            }
            It is 18 °C in Paris, with light rain.
            {
              "functionCalls": [
                {
                  "id": "fc-o7k1",
                  "name": "get_weather",
                  "args": {
                    "city": "Oslo"
                  }
                },
                {
                  "id": "fc-b2m9",
                  "name": "get_weather",
                  "args": {
                    "city": "Bergen"
                  }
                }
              ]
            }
            Bergen is warmer: 7 °C against 4 °C in Oslo.
            user: Compare Oslo and Bergen.
            model: [call get_weather {"city":"Oslo"}][call get_weather {"city":"Bergen"}]
            user: [response get_weather {"temp_c":4}][response get_weather {"temp_c":7}]
            model: Bergen is warmer: 7 °C against 4 °C in Oslo.
            5 passed, 0 failed

            """
        #expect(outcome.stdout == expected)
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
    }

    /// The model turn goes back exactly as received: thought parts and the signature included.
    @Test func theModelTurnIsSentBackWithItsThoughtAndSignature() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "thought": "Need the weather.", "thoughtSignature": "U0lHLTI=", "functionCalls": [{"id": "c9", "name": "get_weather", "args": {"city": "Oslo"}}]}"#,
            #"{"kind": "generate", "text": "Cold."}"#,
        ])
        let outcome = try await shell.run([
            "-c", Self.declare, "-c", "ask Oslo?", "-c", "tool-reply get_weather 4",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let last = try #require(try await shell.server.requests().last)
        #expect(
            last.body["contents"]?[1]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "model", "parts": [{"text": "Need the weather.", "thought": true},
                          {"functionCall": {"id": "c9", "name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lHLTI="}]}
                        """#)))
    }

    static var csvPlugin: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../examples/plugins/sophon-plugin-csv").standardizedFileURL.path
    }

    /// A plugin's tool runs with `--allow-tools`: one stderr line per call, the result goes back,
    /// the usage of both rounds is summed; without consent the call is declined.
    @Test func aPluginToolIsServedWithConsentAndDeclinedWithout() async throws {
        let shell = try await GeminiShell()
        let call =
            #"{"kind": "generate", "functionCalls": [{"id": "c1", "name": "csv_columns", "args": {"text": "a,b"}}]}"#
        try await shell.server.script([call, #"{"kind": "generate", "text": "a and b."}"#])
        let allowed = try await shell.run([
            "--allow-tools", "--json", "-c", "plugin load \(Self.csvPlugin)", "-c", "ask Columns?",
        ])
        #expect(allowed.stderr == #"tool csv_columns {"text":"a,b"} -> {"columns":["a","b"]}"# + "\n")
        let envelope = try JSONValue(parsing: String(allowed.stdout.split(separator: "\n").last ?? ""))
        #expect(envelope["result"] == .string("a and b."))
        #expect(envelope["usage"]?["totalTokens"] == .integer(22))
        let answer = try #require(try await shell.server.requests().last).body["contents"]?[2]
        #expect(
            answer
                == (try JSONValue(
                    parsing:
                        #"{"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "csv_columns", "response": {"columns": ["a", "b"]}}}]}"#
                )))
        try await shell.server.script([call, #"{"kind": "generate", "text": "Declined."}"#])
        let declined = try await shell.run(["-c", "plugin load \(Self.csvPlugin)", "-c", "ask Columns?"])
        #expect(declined.stdout == "Declined.\n")
        #expect(
            declined.stderr == """
                tool csv_columns: declined (no consent without a terminal: run with --allow-tools, or 'set tool-confirm off')
                tool csv_columns {"text":"a,b"} -> {"error":"the user declined this call"}

                """)
    }

    /// `tool-rounds` counts model requests per command.
    @Test func toolRoundsStopsAServedLoop() async throws {
        let shell = try await GeminiShell()
        let call =
            #"{"kind": "generate", "functionCalls": [{"id": "c1", "name": "csv_columns", "args": {"text": "a"}}]}"#
        try await shell.server.script([call, call, call])
        let outcome = try await shell.run([
            "-c", "plugin load \(Self.csvPlugin)", "-c", "set tool-confirm off", "-c", "set tool-rounds 2",
            "-c",
            "ask Columns?",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.hasSuffix(
                "-c:4:1: error: the model still asked for function calls after 2 rounds (set tool-rounds N): csv_columns\n"
            ))
        #expect(try await shell.server.requests().count == 2)
    }

    /// A served call is recorded as a `{"tool": ...}` line; the replay answers it from the tape.
    @Test func aServedCallIsRecordedAndReplayedFromTheTape() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "c1", "name": "csv_columns", "args": {"text": "x,y"}}]}"#,
            #"{"kind": "generate", "text": "x and y."}"#,
        ])
        let tape = shell.home.appendingPathComponent("tool.tape").path
        let arguments = ["-c", "plugin load \(Self.csvPlugin)", "-c", "ask Columns?"]
        let recorded = try await shell.run(["--allow-tools", "--record", tape] + arguments)
        #expect(recorded.stdout == "x and y.\n")
        let lines = (shell.read("tool.tape") ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[2]
                == #"{"tool":{"name":"csv_columns","args":{"text":"x,y"},"server":"csv","result":{"columns":["x","y"]}}}"#
        )
        shell.server.stop()
        let replayed = try await shell.run(["--replay", tape] + arguments)
        #expect(replayed.stdout == "x and y.\n")
        #expect(replayed.stderr == #"tool csv_columns {"text":"x,y"} -> {"columns":["x","y"]}"# + "\n")
        #expect(replayed.status == 0)
    }
}
