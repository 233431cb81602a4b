import Foundation
import SophonCore
import SophonGemini
import SophonTestSupport
import Testing

/// `embed`, `embed-multi`, `similar`, `collections` and `expect ... similar|judge`: the real
/// binary against scripts/fake_gemini.py over loopback (deterministic embeddings: each word
/// hashed into one dimension, normalised; docs/embeddings.md, PRODUCT §13).
@Suite(.childSlots) struct EmbeddingsShellTests {
    static let docs = """
        {"id":"d1","text":"how to cook pasta","tag":"food"}
        {"id":"d2","text":"how to fix a bike"}
        {"id":3,"text":"pasta sauce recipe"}

        """

    @Test func embedPrintsTheVectorAndSendsTheWireBody() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "embed --dimensions 8 hello world"])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "[0.0,0.0,0.0,0.0,0.0,0.0,0.707107,0.707107]\n")
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(requests[0].path == "/v1beta/models/gemini-embedding-001:embedContent")
        #expect(
            requests[0].bodyText
                == #"{"content":{"parts":[{"text":"hello world"}]},"outputDimensionality":8}"#)
    }

    /// `help expect` names the operators this plugin adds beside the built-in ones.
    @Test func helpExpectListsSimilarAndJudge() async throws {
        let help = try await SophonProcess.run(["help", "expect"])
        #expect(
            help
                == .init(
                    stdout: """
                        usage: expect A OP B | expect valid
                        check a value: == != < <= > >= contains matches similar judge

                        """, stderr: "", status: 0))
    }

    /// `judge` is no command of its own: `help judge` says where it is.
    @Test func helpJudgePointsAtExpect() async throws {
        #expect(
            try await SophonProcess.run(["help", "judge"])
                == .init(
                    stdout: "",
                    stderr:
                        "error: unknown command 'judge' ('judge' is an operator of expect: see 'help expect')\n",
                    status: 1))
    }

    @Test func embedDryRunSendsNothing() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "embed --dry-run --task semantic_similarity hi"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                POST /v1beta/models/gemini-embedding-001:embedContent
                {
                  "content": {
                    "parts": [
                      {
                        "text": "hi"
                      }
                    ]
                  },
                  "taskType": "SEMANTIC_SIMILARITY"
                }

                """)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aModelOutsideTheEmbeddingCatalogGetsTheNote() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "embed --dry-run --model gemini-embeding-001 hi"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr
                == "note: 'gemini-embeding-001' is not in the catalog; using it as a custom model "
                + "(did you mean 'gemini-embedding-001'?)\n")
        #expect(outcome.stdout.hasPrefix("POST /v1beta/models/gemini-embeding-001:embedContent\n"))
    }

    @Test func embedMultiStoresSkipsWhatIsStoredAndSimilarRanksByCosine() async throws {
        let shell = try await GeminiShell()
        try shell.write("docs.jsonl", Self.docs)
        let first = try await shell.run(["-c", "embed-multi docs docs.jsonl"])
        #expect(first.stderr == "")
        #expect(first.stdout == "docs: 3 embedded, 0 skipped (already stored), 1 request\n")
        var requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(requests[0].path == "/v1beta/models/gemini-embedding-001:batchEmbedContents")
        #expect(
            requests[0].bodyText
                == #"{"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"how to cook pasta"}]},"taskType":"RETRIEVAL_DOCUMENT"},"#
                + #"{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"how to fix a bike"}]},"taskType":"RETRIEVAL_DOCUMENT"},"#
                + #"{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"pasta sauce recipe"}]},"taskType":"RETRIEVAL_DOCUMENT"}]}"#
        )
        // d2 changed, d4 new: only those two are sent, at the collection's dimension.
        try shell.write(
            "docs.jsonl",
            Self.docs.replacingOccurrences(of: "fix a bike", with: "ride a bike")
                + #"{"id":"d4","text":"boil water for pasta"}"# + "\n")
        try await shell.server.script([])
        let second = try await shell.run(["-c", "embed-multi docs docs.jsonl"])
        #expect(second.stdout == "docs: 2 embedded, 2 skipped (already stored), 1 request\n")
        requests = try await shell.server.requests()
        try #require(requests.count == 1)
        let texts = requests[0].body["requests"].map { items in
            (0..<2).compactMap { items[$0]?["content"]?["parts"]?[0]?["text"]?.stringValue }
        }
        #expect(texts == ["how to ride a bike", "boil water for pasta"])
        #expect(requests[0].body["requests"]?[0]?["outputDimensionality"] == .number(JSONNumber(768)))

        try await shell.server.script([])
        let similar = try await shell.run(["-c", "similar docs cook pasta -n 2", "-c", "collections"])
        #expect(similar.stderr == "")
        #expect(
            similar.stdout == "0.7071  d1\n0.4082  3\ndocs  gemini-embedding-001  768 dimensions  4 rows\n")
        requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(requests[0].body["requests"]?[0]?["taskType"]?.stringValue == "RETRIEVAL_QUERY")

        let json = try await shell.run(["-c", "similar --json -n 1 docs cook pasta"])
        let value = try #require(try JSONValue(parsing: json.stdout)["result"])
        #expect(value["collection"]?.stringValue == "docs")
        #expect(value["model"]?.stringValue == "gemini-embedding-001")
        #expect(value["matches"]?[0]?["id"]?.stringValue == "d1")
        #expect(value["matches"]?[0]?["metadata"] == .object([JSONMember("tag", .string("food"))]))

        // `--json`: one object, the data as named members (PRODUCT Part 3), not a bare array.
        let listed = try await shell.run(["-c", "collections --json"])
        #expect(
            listed.stdout
                == #"{"command":"collections --json","ok":true,"result":{"collections":[{"name":"docs","model":"gemini-embedding-001","dimensions":768,"count":4}]}}"#
                + "\n")

        let deleted = try await shell.run(["-c", "collections delete docs", "-c", "collections"])
        #expect(deleted.stdout == "(no collections)\n")
    }

    @Test func aRunThatFailsHalfwayResumesSendingOnlyTheMissingRows() async throws {
        let shell = try await GeminiShell()
        let rows = (0..<250).map { #"{"id":"r\#($0)","text":"row number \#($0)"}"# }.joined(separator: "\n")
        try shell.write("rows.jsonl", rows + "\n")
        try await shell.server.script([
            #"{"embeddings": true}"#, #"{"embeddings": true, "fault": "bad_request"}"#,
        ])
        let failed = try await shell.run(["-c", "embed-multi rows rows.jsonl --dimensions 16"])
        #expect(failed.status == 1)
        #expect(try await shell.server.requests().count == 2)
        try await shell.server.script([])
        let resumed = try await shell.run(["-c", "embed-multi rows rows.jsonl"])
        #expect(resumed.stderr == "")
        #expect(resumed.stdout == "rows: 150 embedded, 100 skipped (already stored), 2 requests\n")
        let counts = try await shell.server.requests().map { request -> Int in
            guard case .array(let items)? = request.body["requests"] else { return -1 }
            return items.count
        }
        #expect(counts == [100, 50])
        try await shell.server.script([])
        let again = try await shell.run(["-c", "embed-multi rows rows.jsonl --json"])
        let value = try #require(try JSONValue(parsing: again.stdout)["result"])
        #expect(value["embedded"] == .number(JSONNumber(0)))
        #expect(value["skipped"] == .number(JSONNumber(250)))
        #expect(value["requests"] == .number(JSONNumber(0)))
        #expect(value["dimensions"] == .number(JSONNumber(16)))
        #expect(try await shell.server.requests().isEmpty)
    }

    /// An ID given twice would overwrite its first row, both paid for: refused before sending.
    @Test func anIDGivenTwiceIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("dup.csv", "id,text\n1,a\n2,b\n1,c\n")
        try shell.write(
            "dup.jsonl", #"{"id": "a", "text": "x"}"# + "\n" + #"{"id": "a", "text": "y"}"# + "\n")
        let csv = try await shell.run(["embed-multi", "c", "dup.csv"])
        #expect(csv.stderr == "error: embed-multi: dup.csv:4: duplicate id '1' (first on line 2)\n")
        #expect(csv.status == 1)
        let jsonl = try await shell.run(["embed-multi", "c", "dup.jsonl"])
        #expect(jsonl.stderr == "error: embed-multi: dup.jsonl:2: duplicate id 'a' (first on line 1)\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func csvRowsWithQuotesAndMetadata() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "rows.csv", "id,body,lang\r\na,\"hello, world\",en\r\nb,\"say \"\"hi\"\"\nthere\",fr\r\n")
        let outcome = try await shell.run(["-c", "embed-multi c rows.csv --text body --dimensions 8"])
        #expect(outcome.stderr == "")
        #expect(outcome.stdout == "c: 2 embedded, 0 skipped (already stored), 1 request\n")
        let body = try #require(try await shell.server.requests().first?.body)
        #expect(body["requests"]?[1]?["content"]?["parts"]?[0]?["text"]?.stringValue == "say \"hi\"\nthere")
        let similar = try await shell.run(["-c", "similar --json c hello world"])
        let value = try #require(try JSONValue(parsing: similar.stdout)["result"])
        #expect(value["matches"]?[0]?["id"]?.stringValue == "a")
        #expect(value["matches"]?[0]?["score"] == .number(JSONNumber(text: "1.0")!))
        #expect(value["matches"]?[0]?["metadata"] == .object([JSONMember("lang", .string("en"))]))
    }

    @Test func badInputIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("rows.csv", "id,text\na,hello\n")
        try shell.write("bad.jsonl", "{\"id\":\"a\",\"text\":\"x\"}\nnot json\n")
        try shell.write("array.jsonl", "[1]\n")
        try shell.write("twice.jsonl", "{\"id\":\"a\",\"text\":\"x\",\"text\":\"y\"}\n")
        try shell.write("empty.jsonl", "{\"id\":\"a\",\"text\":\"  \"}\n")
        try shell.write("docs.jsonl", Self.docs)
        let csv = try await shell.run(["-c", "embed-multi c rows.csv --text body"])
        #expect(
            csv.stderr
                == "-c:1:1: error: embed-multi: rows.csv:1: no column 'body' (the columns are 'id', 'text')\n"
        )
        let bad = try await shell.run(["-c", "embed-multi c bad.jsonl"])
        // A JSON Lines row is read by `run`'s rule (``BulkLineReader/Line/object()``).
        #expect(
            bad.stderr
                == "-c:1:1: error: embed-multi: bad.jsonl:2: not valid JSON (column 1: expected a JSON value but found 'not')\n"
        )
        let array = try await shell.run(["-c", "embed-multi c array.jsonl"])
        #expect(
            array.stderr == "-c:1:1: error: embed-multi: array.jsonl:1: expected a JSON object, got array\n")
        let twice = try await shell.run(["-c", "embed-multi c twice.jsonl"])
        #expect(
            twice.stderr == "-c:1:1: error: embed-multi: twice.jsonl:1: \"text\" appears twice; keep one\n")
        let empty = try await shell.run(["-c", "embed-multi c empty.jsonl"])
        #expect(empty.stderr == "-c:1:1: error: embed-multi: empty.jsonl:1: 'text' is empty\n")
        #expect(try await shell.server.requests().isEmpty)
        _ = try await shell.run(["-c", "embed-multi docs docs.jsonl --dimensions 8"])
        try await shell.server.script([])
        let model = try await shell.run(["-c", "embed-multi docs docs.jsonl --model gemini-embedding-2"])
        #expect(
            model.stderr
                == "-c:1:1: error: embed-multi: collection 'docs' holds gemini-embedding-001 vectors of 8 dimensions;"
                + " refusing gemini-embedding-2 vectors of 8 dimensions\n")
        let dimensions = try await shell.run(["-c", "embed-multi docs docs.jsonl --dimensions 4"])
        #expect(
            dimensions.stderr
                == "-c:1:1: error: embed-multi: collection 'docs' holds gemini-embedding-001 vectors of 8 dimensions;"
                + " refusing gemini-embedding-001 vectors of 4 dimensions\n")
        let missing = try await shell.run(["-c", "similar nope hello"])
        #expect(missing.stderr == "-c:1:1: error: similar: no collection 'nope'\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func readingCommandsDoNotCreateTheDatabase() async throws {
        let shell = try await GeminiShell()
        let list = try await shell.run(["-c", "collections"])
        #expect(list.stdout == "(no collections)\n")
        let delete = try await shell.run(["-c", "collections delete docs"])
        #expect(delete.stderr == "-c:1:1: error: collections delete: no collection 'docs'\n")
        let similar = try await shell.run(["-c", "similar docs hello"])
        #expect(similar.stderr == "-c:1:1: error: similar: no collection 'docs'\n")
        #expect(
            !FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("embeddings.db").path))
        #expect(try await shell.server.requests().isEmpty)
    }

    /// A missing collection has the plugin's one kind, before and after `embeddings.db` exists.
    @Test func aMissingCollectionIsOneKindWithOrWithoutTheDatabase() async throws {
        let shell = try await GeminiShell()
        let expected = Set([
            #"{"command":"similar nope x","ok":false,"error":{"kind":"usage","message":"similar: no collection 'nope'"}}"#,
            #"{"command":"collections delete nope","ok":false,"error":{"kind":"usage","message":"collections delete: no collection 'nope'"}}"#,
        ])
        let before = try await shell.run(["--json", "-c", "similar nope x", "-c", "collections delete nope"])
        #expect(Set(before.stdout.split(separator: "\n").map(String.init)) == expected)
        try shell.write("docs.jsonl", #"{"id": "a", "text": "red apple"}"# + "\n")
        _ = try await shell.run(["-c", "embed-multi docs docs.jsonl"])
        let after = try await shell.run(["--json", "-c", "similar nope x", "-c", "collections delete nope"])
        #expect(Set(after.stdout.split(separator: "\n").map(String.init)) == expected)
        #expect(after.status == 1)
    }

    @Test func aMisspeltTaskTypeGetsASuggestion() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "embed --task retrieval_qury hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:1: error: embed: --task: 'retrieval_qury' is not one of "
                + GeminiEmbeddingTaskType.allCases.map(\.rawValue).joined(separator: ", ")
                + " (did you mean 'RETRIEVAL_QUERY'?)\n")
    }

    @Test func expectSimilarShowsTheScore() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "t.sophon",
            """
            expect "Paris is the capital of France" similar "The capital of France is Paris"
            expect "red apple" similar "green apple"
            expect "red apple" similar "green apple" 0.5
            set embed-model gemini-embedding-2
            expect "the cat sat" similar "dogs run fast" 0.1

            """)
        let outcome = try await shell.run(["t.sophon"])
        #expect(
            outcome.stderr == """
                t.sophon:2: error: expect: expected "red apple" similar "green apple" (score 0.50 < 0.8)
                t.sophon:5: error: expect: expected "the cat sat" similar "dogs run fast" (score 0.00 < 0.1)

                """)
        #expect(outcome.status == 1)
        let requests = try await shell.server.requests()
        #expect(requests.count == 4)
        #expect(requests[3].path == "/v1beta/models/gemini-embedding-2:batchEmbedContents")
        #expect(
            requests[0].bodyText
                == #"{"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"Paris is the capital of France"}]},"taskType":"SEMANTIC_SIMILARITY"},"#
                + #"{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"The capital of France is Paris"}]},"taskType":"SEMANTIC_SIMILARITY"}]}"#
        )
    }

    /// A threshold outside 0...1 could never pass (1.5) or never fail (-1), and a judge without
    /// a rubric has nothing to judge by: usage errors, nothing sent.
    @Test func aThresholdOutsideZeroToOneAndAnEmptyRubricAreRefused() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"expect "red apple" similar "green apple" -1"#, "-c", #"expect "a" judge "polite" 5"#,
            "-c", #"expect x similar "y" 5"#, "-c", #"expect a judge """#, "-c", #"expect a judge "  " 0.5"#,
        ])
        #expect(
            outcome.stderr == """
                -c:1:1: error: expect: the threshold of similar is a score from 0 to 1, not -1
                -c:2:1: error: expect: the threshold of judge is a score from 0 to 1, not 5
                -c:3:1: error: expect: the threshold of similar is a score from 0 to 1, not 5
                -c:4:1: error: expect: judge: the rubric is empty
                -c:5:1: error: expect: judge: the rubric is empty

                """)
        #expect(outcome.status == 1)
        let json = try await shell.run([
            "--json", "-c", #"expect x similar "y" 5"#, "-c", #"expect a judge """#,
        ])
        #expect(
            json.stdout == #"""
                {"command":"expect x similar \"y\" 5","ok":false,"error":{"kind":"usage","message":"expect: the threshold of similar is a score from 0 to 1, not 5"}}
                {"command":"expect a judge \"\"","ok":false,"error":{"kind":"usage","message":"expect: judge: the rubric is empty"}}
                {"summary":{"passed":0,"failed":2}}

                """#)
        #expect(try await shell.server.requests().isEmpty)
    }

    /// The judge's reply is read leniently, as every structured answer (docs/embeddings.md):
    /// `"pass": "yes"` and `"score": "0.9"` read as true and 0.9.
    @Test func theJudgesReplyIsReadLeniently() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "judge", "pass": "yes", "score": "0.9", "reason": "fine"}"#]
        )
        let outcome = try await shell.run(["-c", #"expect "Thanks" judge "is polite""#])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "1 passed, 0 failed\n")
    }

    @Test func expectJudgeSendsTheGraderAndShowsScoreAndReason() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "judge", "pass": true, "score": 0.9, "reason": "polite"}"#,
            #"{"kind": "judge", "pass": false, "score": 0.3, "reason": "rude"}"#,
            #"{"kind": "judge", "pass": true, "score": 0.4, "reason": "barely"}"#,
            #"{"kind": "judge", "raw": "{\"verdict\": \"yes\"}"}"#,
        ])
        try shell.write(
            "t.sophon",
            """
            set judge-model gemini-3.8-flash
            expect "Thank you kindly" judge "is polite"
            expect "Go away" judge "is polite"
            expect "Fine." judge "is polite" 0.5
            expect "Yes" judge "is polite"
            show usage

            """)
        let outcome = try await shell.run(["t.sophon"])
        #expect(
            outcome.stderr == """
                t.sophon:3: error: expect: expected "Go away" judge "is polite" (pass false, score 0.30, threshold 0.5: rude)
                t.sophon:4: error: expect: expected "Fine." judge "is polite" (pass true, score 0.40, threshold 0.5: barely)
                t.sophon:5: error: expect: the judge's reply does not fit {pass: boolean, score: number (0..1), reason: string}: $: missing required property "pass"; $: missing required property "score"; $: missing required property "reason"

                """)
        #expect(outcome.status == 1)
        let requests = try await shell.server.requests()
        try #require(requests.count == 4)
        #expect(requests[0].path == "/v1beta/models/gemini-3.8-flash:generateContent")
        let body = requests[0].body
        #expect(body["generationConfig"]?["temperature"] == .number(JSONNumber(0)))
        #expect(body["generationConfig"]?["responseMimeType"]?.stringValue == "application/json")
        #expect(
            body["generationConfig"]?["responseSchema"]?.compactText
                == #"{"type":"OBJECT","properties":{"pass":{"type":"BOOLEAN"},"score":{"type":"NUMBER","minimum":0,"maximum":1},"reason":{"type":"STRING"}},"required":["pass","score","reason"],"propertyOrdering":["pass","score","reason"]}"#
        )
        #expect(
            body["systemInstruction"]?["parts"]?[0]?["text"]?.stringValue?.hasPrefix(
                "You are a strict grader.") == true)
        #expect(
            body["contents"]?[0]?["parts"]?[0]?["text"]?.stringValue
                == "RUBRIC:\nis polite\n\nOUTPUT:\nThank you kindly")
        #expect(outcome.stdout.hasPrefix("4 calls:"))
    }

    @Test func judgeFailuresReachJUnitAndTAP() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "judge", "pass": false, "score": 0.2, "reason": "off topic"}"#
        ])
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("t"), withIntermediateDirectories: true)
        try shell.write("t/j.sophon", "expect \"hi\" judge \"answers the question\"\n")
        let outcome = try await shell.run(["test", "--jobs", "1", "--tap", "--junit", "report.xml", "t"])
        #expect(outcome.status == 1)
        let line =
            #"expected "hi" judge "answers the question" (pass false, score 0.20, threshold 0.5: off topic)"#
        #expect(outcome.stdout.contains("message: " + JSONValue.string(line).compactText))
        let junit = try #require(shell.read("report.xml"))
        #expect(junit.contains(line.replacingOccurrences(of: "\"", with: "&quot;")))
    }

    @Test func judgeAndEmbeddingCallsAreLoggedAndAReplayIsDeterministic() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "judge", "pass": false, "score": 0.25, "reason": "vague"}"#]
        )
        try shell.write(
            "t.sophon",
            """
            expect "It depends." judge "gives a clear answer"
            expect "red apple" similar "green apple" 0.4

            """)
        let recorded = try await shell.run(["--record", "t.tape", "t.sophon"])
        let failure =
            "t.sophon:1: error: expect: expected \"It depends.\" judge \"gives a clear answer\""
            + " (pass false, score 0.25, threshold 0.5: vague)\n"
        #expect(recorded.stderr == failure)
        #expect(try await shell.server.requests().count == 2)
        try await shell.server.script([#"{"kind": "judge", "pass": true, "score": 1, "reason": "other"}"#])
        let replayed = try await shell.run(["--replay", "t.tape", "t.sophon"])
        #expect(replayed.stderr == failure)
        #expect(replayed.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        let logs = try await shell.run(["-c", "logs --json"])
        let entries = try JSONValue(parsing: logs.stdout)
        guard case .array(let items) = entries else {
            Issue.record("logs --json is not an array: \(logs.stdout)")
            return
        }
        #expect(items.map { $0["command"]?.stringValue ?? "" } == ["judge", "expect"])
        #expect(items[0]["answer"]?.stringValue == #"{"pass":false,"score":0.25,"reason":"vague"}"#)
        #expect(items[1]["prompt"]?.stringValue == "red apple\ngreen apple")
        #expect(items[1]["answer"]?.stringValue == "2 vectors of 768 dimensions")
    }

    @Test func embedAndJudgeModelSettings() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "show embed-model", "-c", "set embed-model gemini-embedding-2", "-c", "show embed-model",
            "-c", "set model gemini-3.8-flash", "-c", "show judge-model", "-c",
            "set judge-model gemini-3.8-pro",
            "-c", "show judge-model", "-c", "set judge-model default", "-c", "show judge-model",
        ])
        #expect(
            outcome.stderr
                == "note: 'gemini-3.8-pro' is not in the catalog; using it as a custom model (did you mean 'gemini-2.5-pro'?)\n"
        )
        #expect(
            outcome.stdout
                == "gemini-embedding-001\ngemini-embedding-2\ngemini-3.8-flash\ngemini-3.8-pro\ngemini-3.8-flash\n"
        )
    }

    /// `set judge-model` and `set embed-model` say, as `set model` does, when a model is not in
    /// the catalog (the embedding models for `embed-model`), with the closest one suggested.
    @Test func aModelOutsideTheCatalogGetsTheNoteOfSetModel() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set judge-model gemini-2.5-prx", "-c", "set embed-model gemini-embeding-001", "-c",
            "set embed-model custom:my-embedder", "-c", "set judge-model gemini-2.5-pro", "-c",
            "set embed-model gemini-embedding-2", "-c", "show embed-model",
        ])
        #expect(
            outcome.stderr == """
                note: 'gemini-2.5-prx' is not in the catalog; using it as a custom model (did you mean 'gemini-2.5-pro'?)
                note: 'gemini-embeding-001' is not in the catalog; using it as a custom model (did you mean 'gemini-embedding-001'?)
                note: 'my-embedder' is not in the catalog; using it as a custom model

                """)
        #expect(outcome.stdout == "gemini-embedding-2\n")
    }

    /// A chat model of the catalog as the embedding model is in the catalog: the note says it
    /// is not an embedding model (it said "not in the catalog"), for `set embed-model` and
    /// `embed --model` alike.
    @Test func aChatModelAsTheEmbeddingModelIsNotCalledOutsideTheCatalog() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set embed-model gemini-2.5-flash", "-c", "embed --dry-run --model gemini25Pro hi",
        ])
        let note =
            "is not an embedding model (gemini-embedding-001, gemini-embedding-2); using it as a custom model"
        #expect(
            outcome.stderr == """
                note: 'gemini-2.5-flash' \(note)
                note: 'gemini-2.5-pro' \(note)

                """)
        #expect(
            outcome.stdout == """
                POST /v1beta/models/gemini-2.5-pro:embedContent
                {
                  "content": {
                    "parts": [
                      {
                        "text": "hi"
                      }
                    ]
                  }
                }

                """)
        #expect(outcome.status == 0)
    }

    /// `embed-multi --json` and `similar --json` print the one-line envelope `sophon --json`
    /// prints, with `usage`, `retries` and `cost` also when nothing was sent.
    @Test func embedMultiAndSimilarJSONPrintTheOneLineEnvelope() async throws {
        let shell = try await GeminiShell()
        try shell.write("d.jsonl", #"{"id":"a","text":"red apple"}"# + "\n")
        let first = try await shell.run(["-c", "embed-multi --json c d.jsonl --dimensions 4"])
        #expect(first.stderr == "")
        #expect(
            first.stdout
                == #"{"command":"embed-multi --json c d.jsonl --dimensions 4","ok":true,"result":{"collection":"c","#
                + #""model":"gemini-embedding-001","dimensions":4,"rows":1,"embedded":1,"skipped":0,"requests":1,"#
                + #""usage":{"promptTokens":0,"outputTokens":0,"thoughtsTokens":0,"totalTokens":0},"retries":0,"cost":"unknown"}}"#
                + "\n")
        let again = try await shell.run(["--json", "-c", "embed-multi c d.jsonl"])
        #expect(
            again.stdout
                == #"{"command":"embed-multi c d.jsonl","ok":true,"result":{"collection":"c","#
                + #""model":"gemini-embedding-001","dimensions":4,"rows":1,"embedded":0,"skipped":1,"requests":0,"#
                + #""usage":{"promptTokens":0,"outputTokens":0,"thoughtsTokens":0,"totalTokens":0},"retries":0,"cost":0.00}}"#
                + "\n")
        let similar = try await shell.run(["-c", "similar --json c red"])
        let global = try await shell.run(["--json", "-c", "similar c red"])
        #expect(
            similar.stdout
                == #"{"command":"similar --json c red","ok":true,"result":{"collection":"c","#
                + #""model":"gemini-embedding-001","matches":[{"id":"a","score":1.0,"metadata":null}],"#
                + #""usage":{"promptTokens":0,"outputTokens":0,"thoughtsTokens":0,"totalTokens":0},"retries":0,"cost":"unknown"}}"#
                + "\n")
        #expect(
            global.stdout
                == similar.stdout.replacingOccurrences(of: "similar --json c red", with: "similar c red"))
    }

    /// The API counts no tokens for embeddings: their cost is unknown, never $0.00, in `--json`,
    /// `show usage` and the log (docs/cost.md).
    @Test func anEmbeddingsCostIsUnknown() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "embed --dimensions 2 hi", "-c", "show usage", "-c", "embed --json --dimensions 2 hi",
        ])
        #expect(outcome.stderr == "")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        #expect(
            lines[1...3] == [
                "1 call: 0 prompt, 0 output, 0 thoughts, 0 total tokens",
                "gemini-embedding-001: 1 call, 0 tokens, unknown", "total cost: unknown",
            ])
        #expect(lines[4].hasSuffix(#""retries":0,"cost":"unknown"}"#))
        // NULL in logs.db, read back as unknown.
        let logs = try await shell.run(["--json", "-c", "logs show 1"])
        #expect(logs.stdout.contains(#""command":"embed","model":"gemini-embedding-001""#))
        #expect(logs.stdout.contains(#""cost":"unknown""#))
    }

    /// `embed ""` is an empty text, as `similar c ""` says, not a missing one.
    @Test func anEmptyTextToEmbedIsSaidSo() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", #"embed """#, "-c", "embed --dimensions 8 '  '"])
        #expect(
            outcome.stderr == """
                -c:1:1: error: embed: the text to embed is empty
                -c:2:1: error: embed: the text to embed is empty

                """)
        #expect(try await shell.server.requests().isEmpty)
    }
}
