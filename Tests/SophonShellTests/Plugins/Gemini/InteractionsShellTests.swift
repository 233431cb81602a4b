import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// The Interactions API in the shell (docs/interactions.md): the real binary against
/// scripts/fake_gemini.py. The structured ask, the two-turn chat, the tool round trip and the
/// streamed answer over both APIs, recorded and replayed; chat continuing by id; a stream cut
/// and resumed; an expired interaction; a research job started, detached, listed, waited for
/// and shown.
@Suite(.childSlots) struct InteractionsShellTests {
    static let tour = """
        schema { title: string, year: integer }
        ask Name a book
        echo title: ${last.title} ${last.year}
        schema clear
        chat I have 2 dogs.
        chat How many paws?
        ask Say hello
        tool get_weather { city: string } "Current weather"
        ask What is the weather in Paris?
        echo call: ${last.functionCalls[0].name} ${last.functionCalls[0].args.city}
        tool-reply get_weather {"temp_c": 18}

        """

    static func interactionsQueue(_ shell: GeminiShell, _ replies: [String]) async throws {
        _ = try await shell.server.control(
            "POST", "/_sophon/interactions",
            body: #"{"reset": true, "replies": [\#(replies.joined(separator: ","))]}"#)
    }

    @Test(arguments: ["generate-content", "interactions"])
    func theTourRunsOverBothAPIsAndReplaysFromItsTape(api: String) async throws {
        let shell = try await GeminiShell()
        if api == "interactions" {
            try await Self.interactionsQueue(
                shell,
                [
                    #"{"text": "{\"title\": \"Dune\", \"year\": 1965}"}"#, #"{"text": "Two dogs."}"#,
                    #"{"text": "Eight paws."}"#, #"{"chunks": ["Hel", "lo!"]}"#,
                    #"{"functionCalls": [{"id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]}"#,
                    #"{"text": "18 degrees in Paris."}"#,
                ])
        } else {
            try await shell.server.script([
                #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": 1965}"}"#,
                #"{"kind": "generate", "text": "Two dogs."}"#,
                #"{"kind": "generate", "text": "Eight paws."}"#,
                #"{"kind": "generate", "chunks": ["Hel", "lo!"]}"#,
                #"{"kind": "generate", "functionCalls": [{"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}]}"#,
                #"{"kind": "generate", "text": "18 degrees in Paris."}"#,
            ])
        }
        let script = try shell.write("tour.sophon", "set api \(api)\n" + Self.tour)
        let tape = shell.home.appendingPathComponent("tour.tape").path
        let recorded = try await shell.run(["--record", tape, script])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(
            recorded.stdout
                == """
                {
                  "title": "Dune",
                  "year": 1965
                }
                title: Dune 1965
                Two dogs.
                Eight paws.
                Hello!
                {
                  "functionCalls": [
                    {
                      "id": "c1",
                      "name": "get_weather",
                      "args": {
                        "city": "Paris"
                      }
                    }
                  ]
                }
                call: get_weather Paris
                18 degrees in Paris.

                """)
        let sent = try await shell.server.requests()
        #expect(sent.count == 6)
        if api == "interactions" {
            #expect(sent.allSatisfy { $0.path.hasPrefix("/v1beta/interactions") })
            #expect(sent[1].body["previous_interaction_id"] == nil)
            #expect(sent[2].body["previous_interaction_id"]?.stringValue?.hasPrefix("v1_") == true)
            #expect(sent[2].body["input"] == .string("How many paws?"))
            #expect(sent[3].body["stream"] == .bool(true))
            #expect(sent[5].body["tools"] == sent[4].body["tools"])
            #expect(sent[5].body["input"]?[0]?["call_id"] == .string("c1"))
        } else {
            #expect(sent.allSatisfy { $0.path.hasPrefix("/v1beta/models/") })
        }
        shell.server.stop()
        shell.key = nil
        let replayed = try await shell.run(["--replay", tape, script])
        #expect(replayed.stdout == recorded.stdout)
        #expect(replayed.status == 0, "\(replayed.stderr)")
    }

    @Test func settingsShowTheAPIAndTheLastInteraction() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c",
            "show api\nshow interaction\nset api interactions\nshow api\nset store off\nshow store\nset api graphql",
        ])
        #expect(
            outcome.stdout
                == "generate-content\n(no interaction yet; set api interactions, then ask or chat)\ninteractions\noff\n"
        )
        #expect(
            outcome.stderr.contains(
                "error: set api: expected generate-content or interactions, got 'graphql'\n"))
        #expect(outcome.status == 1)
    }

    @Test func refusedAPIAndStoreValuesSayWhatIsExpectedAndTheCloseOne() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set api interaction", "-c", "set store of", "-c", "set store maybe",
        ])
        #expect(
            outcome.stderr
                == "-c:1:1: error: set api: expected generate-content or interactions, got 'interaction' "
                + "(did you mean 'interactions'?)\n"
                + "-c:2:1: error: set store: expected on or off, got 'of' (did you mean 'on'?)\n"
                + "-c:3:1: error: set store: expected on or off, got 'maybe'\n")
        #expect(outcome.status == 1)
    }

    @Test func storeOffSendsTheWholeHistoryAndNoID() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set api interactions\nset store off\nset stream off\nchat one\nchat two",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let sent = try await shell.server.requests()
        #expect(sent[1].body["previous_interaction_id"] == nil)
        #expect(sent[1].body["store"] == .bool(false))
        #expect(
            sent[1].body["input"]?.compactText
                == #"[{"type":"user_input","content":[{"type":"text","text":"one"}]},"#
                + #"{"type":"model_output","content":[{"type":"text","text":"Hello from the fake Interactions API: one"}]},"#
                + #"{"type":"user_input","content":[{"type":"text","text":"two"}]}]"#)
    }

    /// A completed interaction with no output (no text, no media) is an empty answer, as
    /// generateContent's empty reply is: the command fails, once, streamed or not; never an
    /// empty line and exit 0.
    @Test func aCompletedInteractionWithNoOutputIsAnEmptyAnswer() async throws {
        let shell = try await GeminiShell()
        try await Self.interactionsQueue(shell, [#"{"steps": []}"#, #"{"steps": []}"#])
        let outcome = try await shell.run([
            "-c", "set api interactions", "-c", "ask first", "-c", "set stream off", "-c", "ask second",
        ])
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "-c:2:1: error: The model returned an empty answer.\n-c:4:1: error: The model returned an empty answer.\n"
        )
        #expect(outcome.status == 1)
        #expect(try await shell.server.paths().count == 2)
    }

    @Test func aCutStreamIsResumedAndTooManyCutsSayWhatArrived() async throws {
        let shell = try await GeminiShell()
        try await Self.interactionsQueue(
            shell,
            [
                #"{"chunks": ["one ", "two ", "three"], "cutAfter": [3]}"#,
                #"{"chunks": ["ab", "cd", "ef"], "cutAfter": [2, 1, 1, 1]}"#,
            ])
        let outcome = try await shell.run([
            "-c", "set api interactions\nretry-policy attempts=2 base=0s jitter=off\nask first\nask second",
        ])
        #expect(outcome.stdout == "one two three\nabcd\n")
        #expect(
            outcome.stderr.contains(
                "error: the interaction's stream ended before interaction.completed and could not be resumed within the retry policy's attempts; what arrived (4 characters): abcd"
            ))
        #expect(outcome.status == 1)
        let paths = try await shell.server.paths()
        #expect(paths.count == 4)
        #expect(paths[1].hasSuffix("?stream=true&last_event_id=evt_3"))
    }

    @Test func aContinuedInteractionTheServerLostSaysSoAndSendsTheHistoryNext() async throws {
        let shell = try await GeminiShell()
        let first = try await shell.run([
            "-c", "set log on\nset api interactions\nset stream off\nchat I have 2 dogs.",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let id = try await shell.server.requests()[0].path
        #expect(id == "/v1beta/interactions")
        _ = try await shell.server.control("POST", "/_sophon/reset", body: nil)
        let second = try await shell.run([
            "-c",
            "set log on\nset api interactions\nset stream off\nchat --continue How many paws?\nchat How many paws?",
        ])
        #expect(
            second.stderr.contains("is no longer on the server (expired, deleted, or made with store off)"))
        #expect(
            second.stderr.contains("the conversation's 2 steps are kept here: the next chat sends them whole")
        )
        #expect(second.stdout == "Hello from the fake Interactions API: I have 2 dogs. How many paws?\n")
        let sent = try await shell.server.requests()
        #expect(sent[0].body["previous_interaction_id"]?.stringValue?.hasPrefix("v1_") == true)
        #expect(sent[1].body["previous_interaction_id"] == nil)
        #expect(sent[1].body["input"]?[0]?["type"] == .string("user_input"))
    }

    @Test func anUnknownAgentIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["research", "--agent", "deep-thought", "Why 42?"])
        #expect(
            outcome.stderr
                == "error: research: unknown agent 'deep-thought'; known agents: deep-research-preview-04-2026, "
                + "deep-research-max-preview-04-2026, deep-research-pro-preview-12-2025\n")
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aResearchJobIsStartedDetachedListedWaitedForAndShown() async throws {
        let shell = try await GeminiShell()
        // A job that runs until told to finish: the detach cannot race its end.
        try await Self.interactionsQueue(shell, [#"{"polls": 100000}"#])
        let running = try shell.start(["research", "History of TPUs"])
        // The job's id came back: waited for on this thread, not by a task a loaded pool resumes
        // late (it once resumed after the watchdog had ended the run: status 15, no note). The
        // SIGINT comes right after the line, before the first poll: the detach note is in force.
        #expect(await running.waitForStderr(" started (deep-research-preview-04-2026)\n"))
        kill(running.process.processIdentifier, SIGINT)
        let detached = await running.finish()
        let id = try #require(
            detached.stderr.split(separator: "\n").first?.split(separator: " ").dropFirst(2).first.map(
                String.init))
        #expect(id.hasPrefix("v1_"))
        _ = try await shell.server.control("POST", "/_sophon/interactions", body: #"{"finish": "\#(id)"}"#)
        #expect(detached.status == 130)
        #expect(
            detached.stderr.contains(
                "detached: research job \(id) goes on on the server; 'agent wait \(id)' picks it up"))
        let listed = try await shell.run(["--json", "agents"])
        let jobs = try JSONValue(parsing: listed.stdout)["result"]?["jobs"]
        #expect(jobs?[0]?["id"] == .string(id))
        #expect(jobs?[0]?["status"] == .string("in_progress"))
        #expect(jobs?[0]?["question"] == .string("History of TPUs"))
        let waited = try await shell.run(["agent", "wait", id])
        #expect(waited.status == 0, "\(waited.stderr)")
        let report = """
            # Report

            History of TPUs

            The fake agent found two sources that agree.

            ## Sources

            1. [Example source](https://example.com/a)
            2. [Second source](https://example.org/b)

            """
        #expect(waited.stdout == report)
        #expect(waited.stderr.contains("writing the report"))
        // The detached job's report is logged (and counted) by the `agent wait` that got it.
        let logged = try await shell.run(["--json", "logs", "show", "1"])
        #expect(try JSONValue(parsing: logged.stdout)["result"]?["command"] == .string("agent wait"))
        let shown = try await shell.run(["-c", "agent show \(id)\nexpect $last contains Second source"])
        #expect(shown.stdout == report + "1 passed, 0 failed\n")
        let status = try await shell.run(["--json", "agent", "status", id])
        #expect(try JSONValue(parsing: status.stdout)["result"]?["status"] == .string("completed"))
    }

    @Test func researchDryRunPrintsTheCreateAndSendsAndJournalsNothing() async throws {
        let shell = try await GeminiShell()
        let flagged = try await shell.run(["research", "--dry-run", "Why 42?"])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(
            flagged.stdout
                == #"POST /v1beta/interactions\#n{\#n  "agent": "deep-research-preview-04-2026",\#n"#
                + #"  "input": "Why 42?",\#n  "agent_config": {\#n    "type": "deep-research",\#n"#
                + #"    "thinking_summaries": "auto"\#n  },\#n  "background": true\#n}\#n"#)
        let set = try await shell.run(["--json", "-c", "set dry-run on\nresearch Why 42?"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(
            set.stdout.split(separator: "\n").last.map(String.init)
                == #"{"command":"research Why 42?","ok":true,"result":{"method":"POST","path":"/v1beta/interactions","#
                + #""body":{"agent":"deep-research-preview-04-2026","input":"Why 42?","agent_config":"#
                + #"{"type":"deep-research","thinking_summaries":"auto"},"background":true}}}"#)
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("agents.json") == nil)
    }

    @Test func aResearchJobIsLoggedAndCountedOnce() async throws {
        let shell = try await GeminiShell()
        try await Self.interactionsQueue(shell, [#"{"polls": 1}"#])
        let outcome = try await shell.run(["-c", "research tallest mountain\nshow usage"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.hasSuffix(
                "1 call: 5 prompt, 7 output, 0 thoughts, 12 total tokens\n"
                    + "deep-research-preview-04-2026: 1 call, 12 tokens, unknown\ntotal cost: unknown\n"))
        let id = try #require(
            JSONValue(parsing: shell.read("agents.json") ?? "")["jobs"]?[0]?["id"]?.stringValue)
        let logged = try await shell.run(["--json", "logs", "show", "1"])
        let entry = try JSONValue(parsing: logged.stdout)["result"]
        #expect(entry?["command"] == .string("research"))
        #expect(entry?["model"] == .string("deep-research-preview-04-2026"))
        #expect(entry?["prompt"] == .string("tallest mountain"))
        #expect(entry?["usage"]?["totalTokens"] == .integer(12))
        #expect(entry?["settings"]?.compactText == #"{"api":"interactions","interaction":"\#(id)"}"#)
        #expect(entry?["systemInstruction"] == nil)
        // The report was counted and logged by `research`: `agent wait` prints it again, no more.
        let again = try await shell.run(["-c", "agent wait \(id)\nshow usage"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.hasSuffix(
                "0 calls: 0 prompt, 0 output, 0 thoughts, 0 total tokens\ntotal cost: $0.00\n"))
        #expect(try await shell.run(["logs"]).stdout.split(separator: "\n").count == 1)
    }

    @Test func cancellingAJobThatEndedSaysSo() async throws {
        let shell = try await GeminiShell()
        try await Self.interactionsQueue(shell, [#"{"polls": 1}"#])
        #expect(try await shell.run(["research", "Why?"]).status == 0)
        let id = try #require(
            JSONValue(parsing: shell.read("agents.json") ?? "")["jobs"]?[0]?["id"]?.stringValue)
        let cancel = try await shell.run(["--json", "agent", "cancel", id])
        #expect(cancel.status == 1)
        #expect(
            cancel.stdout
                == #"{"command":"agent cancel \#(id)","ok":false,"error":{"kind":"invalidRequest","message":"#
                + #""agent cancel: research job \#(id) has already ended (completed); there is nothing to cancel"}}"#
                + "\n")
    }

    @Test func aFailedJobShowsItsError() async throws {
        let shell = try await GeminiShell()
        try await Self.interactionsQueue(
            shell, [#"{"polls": 1, "fail": {"code": "internal", "message": "the agent crashed"}}"#])
        let outcome = try await shell.run(["research", "Why?"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("research job v1_"))
        #expect(outcome.stderr.contains("ended failed: internal: the agent crashed\n"))
        let id = try await shell.server.requests()[1].path.replacingOccurrences(
            of: "/v1beta/interactions/", with: "")
        let shown = try await shell.run(["agent", "show", id])
        #expect(shown.stdout == "\(id): failed (5 steps)\nerror: internal: the agent crashed\n")
    }
}
