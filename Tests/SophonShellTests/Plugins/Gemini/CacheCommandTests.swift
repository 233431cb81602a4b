import Foundation
import SophonCore
import SophonGemini
import SophonTestSupport
import Testing

/// `cache` and `set cache` end to end: the real binary against scripts/fake_gemini.py's
/// cachedContents, whose clock the test moves (docs/commands.md, "cache").
@Suite(.childSlots) struct CacheCommandTests {
    static func cacheCreates(_ shell: GeminiShell) async throws -> [JSONValue] {
        try await shell.server.requests().filter {
            $0.method == "POST" && $0.path == "/v1beta/cachedContents"
        }.map(
            \.body)
    }

    static func advance(_ shell: GeminiShell, seconds: Int) async throws {
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"advance": \#(seconds)}"#)
    }

    @Test func createSendsTheFilesSystemAndTTLAndJournalsTheName() async throws {
        let shell = try await GeminiShell()
        try shell.write("manual.txt", "widgets turn left and gadgets turn right\n")
        let outcome = try await shell.run([
            "cache", "create", "docs", "@manual.txt", "--system", "Answer briefly.", "--ttl", "2h",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let creates = try await Self.cacheCreates(shell)
        #expect(creates.count == 1)
        let body = creates.first ?? .null
        #expect(body["model"] == .string("models/gemini-3.8-flash"))
        #expect(body["displayName"] == .string("docs"))
        #expect(body["ttl"] == .string("7200s"))
        #expect(body["systemInstruction"]?["parts"]?[0]?["text"] == .string("Answer briefly."))
        #expect(body["contents"]?[0]?["role"] == .string("user"))
        #expect(
            body["contents"]?[0]?["parts"]?[0]?["text"]
                == .string("widgets turn left and gadgets turn right\n"))
        let id = outcome.stdout.components(separatedBy: "  ").dropFirst().first ?? ""
        #expect(id.hasPrefix("cachedContents/"))
        // 7 words of the file and 2 of the system instruction, as the fake counts tokens.
        #expect(
            outcome.stdout == "docs  \(id)  gemini-3.8-flash  9 tokens  expires 2026-12-01T02:00:00.000000Z\n"
        )
        let journal = try JSONValue(parsing: shell.read("caches.json") ?? "")
        #expect(journal["caches"]?[0]?["name"] == .string("docs"))
        #expect(journal["caches"]?[0]?["id"] == .string(id))
        #expect(journal["caches"]?[0]?["system"] == .bool(true))
    }

    /// A journal that could not be read or saved fails `cache create` before the cache is made:
    /// a folder at caches.json (it was read as an empty journal, the cache was created, then
    /// its name was lost when the journal could not be saved), and a journal whose JSON breaks,
    /// named by line and column, or whose shape is wrong, named by its member.
    @Test func aJournalThatCannotBeKeptFailsCreateBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        let journal = shell.home.appendingPathComponent("caches.json")
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: false)
        let folder = try await shell.run(["cache", "create", "docs", "hello"])
        #expect(folder.status == 1)
        #expect(folder.stdout == "")
        #expect(folder.stderr == "error: cache create: cannot read '\(journal.path)': Is a directory\n")
        try FileManager.default.removeItem(at: journal)
        try shell.write("caches.json", "{\"caches\": [\n  {\"name\": \"a\",\n")
        let broken = try await shell.run(["cache", "create", "docs", "hello"])
        #expect(broken.status == 1)
        #expect(
            broken.stderr
                == "error: cache create: \(journal.path): not a cache journal (line 3, column 1: unexpected end of input; expected the rest of the value)\n"
        )
        try shell.write("caches.json", #"{"caches": [{"name": 5}]}"#)
        let shape = try await shell.run(["cache", "list"])
        #expect(shape.status == 1)
        #expect(
            shape.stderr
                == "error: cache list: \(journal.path): not a cache journal ($.caches[0].name: expected a string)\n"
        )
        #expect(try await Self.cacheCreates(shell).isEmpty)
    }

    @Test func createDryRunPrintsTheRequestAndSendsAndJournalsNothing() async throws {
        let shell = try await GeminiShell()
        let flagged = try await shell.run(["cache", "create", "--dry-run", "c", "hello", "--ttl", "30m"])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(
            flagged.stdout
                == #"POST /v1beta/cachedContents\#n{\#n  "model": "models/gemini-3.8-flash",\#n"#
                + #"  "displayName": "c",\#n  "contents": [\#n    {\#n      "role": "user",\#n"#
                + #"      "parts": [\#n        {\#n          "text": "hello"\#n        }\#n      ]\#n    }\#n  ],\#n"#
                + #"  "ttl": "1800s"\#n}\#n"#)
        let set = try await shell.run(["--json", "-c", "set dry-run on\ncache create c hello"])
        #expect(set.status == 0, "\(set.stderr)")
        let reply = try JSONValue(parsing: set.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(reply["result"]?["method"] == .string("POST"))
        #expect(reply["result"]?["path"] == .string("/v1beta/cachedContents"))
        #expect(reply["result"]?["body"]?["displayName"] == .string("c"))
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("caches.json") == nil)
        // Every subcommand: the request it would send first, and nothing sent.
        let list = try await shell.run(["cache", "list", "--dry-run"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "GET /v1beta/cachedContents?pageSize=100\n")
        // A NAME the journal does not hold is looked up on the server first: that request.
        let delete = try await shell.run(["-c", "set dry-run on", "-c", "cache delete c"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(delete.stdout == "GET /v1beta/cachedContents?pageSize=100\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func createReadsFilesAsAttachDoesBeforeSending() async throws {
        let shell = try await GeminiShell()
        _ = try shell.write("empty.txt", "")
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let binary = shell.home.appendingPathComponent("bin.dat")
        try Data([0x00, 0x01, 0x02, 0xFF, 0x00]).write(to: binary)
        for (file, message) in [
            ("empty.txt", "cache create: 'empty.txt' is empty\n"),
            ("folder", "cache create: 'folder' is a directory\n"),
            ("missing.txt", "cache create: 'missing.txt': no such file\n"),
            (
                "bin.dat",
                "cache create: 'bin.dat': unsupported type application/octet-stream (images, PDF, text, audio, video)\n"
            ),
        ] {
            let outcome = try await shell.run(["cache", "create", "c", "@" + file])
            #expect(outcome.status == 1)
            #expect(outcome.stderr == "error: " + message)
        }
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func setCacheSendsCachedContentLeavesOutSystemAndCountsCachedTokens() async throws {
        let shell = try await GeminiShell()
        try shell.write("manual.txt", "one two three four five six seven eight nine ten\n")
        #expect(
            try await shell.run(["cache", "create", "docs", "@manual.txt", "--system", "Be brief."]).status
                == 0)
        let id =
            try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"]?[0]?["id"]?.stringValue ?? ""
        try await shell.server.script([])
        let outcome = try await shell.run(
            ["--json", "-c", "set system \"Session system\"\nset cache docs\nask hello\nshow usage"])
        #expect(outcome.status == 0)
        let seen = try await shell.server.requests()
        #expect(seen.count == 1)
        let body = seen.first?.body ?? .null
        #expect(body["cachedContent"] == .string(id))
        #expect(body["systemInstruction"] == nil)
        #expect(body["contents"]?[0]?["parts"]?[0]?["text"] == .string("hello"))
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let ask = try JSONValue(parsing: lines.first { $0.contains(#""command":"ask"#) } ?? "")
        // 12 cached tokens (10 words and 2 of the system) added to the 4 of the prompt.
        #expect(ask["usage"]?["cachedTokens"] == .integer(12))
        #expect(ask["usage"]?["promptTokens"] == .integer(16))
        let usage = try JSONValue(parsing: lines.first { $0.contains(#""command":"show usage"#) } ?? "")
        #expect(usage["result"]?["usage"]?["promptTokens"] == .integer(16))
        #expect(usage["result"]?["usage"]?["cachedTokens"] == .integer(12))
    }

    @Test func extendShowListAndDeleteGoThroughTheJournal() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["cache", "create", "docs", "alpha beta gamma"]).status == 0)
        let extend = try await shell.run(["cache", "extend", "docs", "--ttl", "3h"])
        #expect(extend.status == 0)
        #expect(extend.stdout.hasSuffix("3 tokens  expires 2026-12-01T03:00:00.000000Z\n"))
        let patch = try await shell.server.requests().last
        #expect(patch?.method == "PATCH")
        #expect(patch?.path.hasSuffix("?updateMask=ttl") == true)
        #expect(patch?.body == .object([JSONMember("ttl", .string("10800s"))]))
        let show = try await shell.run(["cache", "show", "docs"])
        #expect(show.stdout.hasPrefix("name: docs\nid: cachedContents/"))
        #expect(
            show.stdout.hasSuffix(
                "model: gemini-3.8-flash\ntokens: 3\nexpires: 2026-12-01T03:00:00.000000Z\n"))
        #expect(try await shell.run(["cache", "list"]).stdout.split(separator: "\n").count == 1)
        // A dry run of a journaled NAME prints the DELETE itself, sends it not, keeps the journal.
        let sentBefore = try await shell.server.requests().count
        let dryDelete = try await shell.run(["cache", "delete", "--dry-run", "docs"])
        #expect(dryDelete.status == 0, "\(dryDelete.stderr)")
        #expect(dryDelete.stdout.hasPrefix("DELETE /v1beta/cachedContents/"))
        #expect(try await shell.server.requests().count == sentBefore)
        #expect(
            try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"]?[0]?["name"] == .string("docs"))
        let delete = try await shell.run(["cache", "delete", "docs"])
        #expect(delete.status == 0)
        #expect(try await shell.server.requests().last?.method == "DELETE")
        #expect(try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"] == .array([]))
        let gone = try await shell.run(["cache", "show", "docs"])
        #expect(gone.status == 1)
        #expect(gone.stderr == "error: cache show: no cache named 'docs'\n")
    }

    @Test func anExpiredCacheSaysSoAndListDropsIt() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["cache", "create", "docs", "alpha beta", "--ttl", "30m"]).status == 0)
        let id =
            try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"]?[0]?["id"]?.stringValue ?? ""
        try await Self.advance(shell, seconds: 1801)
        let ask = try await shell.run(["-c", "set cache docs\nask hi"])
        #expect(ask.status == 1)
        #expect(
            ask.stderr
                == "-c:1:2: error: cache 'docs' (\(id)) has expired or was deleted (HTTP 403: CachedContent not found (or permission denied)); make it again with 'cache create'\n"
        )
        let list = try await shell.run(["cache", "list"])
        #expect(list.stdout == "no context caches\n")
        #expect(try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"] == .array([]))
    }

    @Test func aCacheForAnotherModelIsRefusedBeforeSending() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["cache", "create", "docs", "alpha"]).status == 0)
        try await shell.server.script([])
        let outcome = try await shell.run(["-c", "set cache docs\nset model gemini-2.5-flash\nask hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:3: error: cache 'docs' holds context for gemini-3.8-flash, not gemini-2.5-flash: set model gemini-3.8-flash, or set cache off\n"
        )
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func setCacheTakesACacheIDTheJournalDoesNotHold() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["cache", "create", "docs", "alpha beta"]).status == 0)
        let id =
            try JSONValue(parsing: shell.read("caches.json") ?? "")["caches"]?[0]?["id"]?.stringValue ?? ""
        // Made elsewhere: this state folder's journal does not hold it.
        try FileManager.default.removeItem(at: shell.home.appendingPathComponent("caches.json"))
        try await shell.server.script([])
        let outcome = try await shell.run(["-c", "set cache \(id)\nshow cache\nset system Be brief\nask hi"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "\(id)\nHello from the fake Gemini server.\n")
        #expect(
            outcome.stderr
                == "note: the system instruction is not sent with cache '\(id)' (a call from a cache cannot carry one)\n"
        )
        let sent = try await shell.server.requests().last?.body
        #expect(sent?["cachedContent"] == .string(id))
        #expect(sent?["systemInstruction"] == nil)
        let malformed = try await shell.run(["-c", "set cache cachedContents/"])
        #expect(malformed.status == 1)
        #expect(
            malformed.stderr
                == "-c:1:1: error: set cache: no cache named 'cachedContents/' (make one with 'cache create cachedContents/ ...')\n"
        )
    }

    @Test func setCacheOfAnUnknownNameFailsAndOffClearsIt() async throws {
        let shell = try await GeminiShell()
        let unknown = try await shell.run(["-c", "set cache nope"])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr
                == "-c:1:1: error: set cache: no cache named 'nope' (make one with 'cache create nope ...')\n"
        )
        #expect(try await shell.run(["cache", "create", "docs", "alpha"]).status == 0)
        let shown = try await shell.run([
            "-c", "show cache\nset cache docs\nshow cache\nset cache off\nshow cache",
        ])
        #expect(shown.stdout == "off\ndocs\noff\n")
    }

    /// The measure of issue 31: the same 10 prompts over a long system text, from a cache,
    /// report the cached tokens of every call (the fake counts a word as a token).
    @Test func tenPromptsFromACacheOfALongSystemTextReportTheCachedTokens() async throws {
        let shell = try await GeminiShell()
        let system = Array(repeating: "Refunds are paid within thirty days of a return.", count: 400)
            .joined(separator: " ")  // 3,600 words
        try shell.write("faq.txt", "Shipping is free above fifty euros.\n")
        #expect(
            try await shell.run(["cache", "create", "policy", "@faq.txt", "--system", system]).status == 0)
        let asks = (1...10).map { "ask question \($0)" }.joined(separator: "\n")
        let outcome = try await shell.run(["-c", "set cache policy\n\(asks)\nshow usage"])
        #expect(outcome.status == 0)
        let calls = try await shell.server.requests().filter { $0.path.contains(":streamGenerateContent") }
        #expect(calls.count == 10)
        #expect(calls.allSatisfy { $0.body["systemInstruction"] == nil && $0.body["cachedContent"] != nil })
        // 3,606 cached tokens a call (3,600 of the system text, 6 of the file) beside the 4 of
        // the question: 36,060 of the 36,100 prompt tokens were served from the cache.
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "10 calls: 36100 prompt (36060 of them cached), 70 output, 0 thoughts, 36170 total tokens"))
        // The cost: cached tokens at the cached-input price. The same usage without the cache
        // (every prompt token at the input price) costs more, by the built-in table.
        #expect(lines.last == "total cost: $0.002997")
        let uncached = UsageMetadata(
            promptTokenCount: 36_100, candidatesTokenCount: 70, totalTokenCount: 36_170)
        var cached = uncached
        cached.cachedContentTokenCount = 36_060
        let table = GeminiPriceTable.builtIn
        let withCache = try #require(table.cost(model: "gemini-3.8-flash", usage: cached))
        let withoutCache = try #require(table.cost(model: "gemini-3.8-flash", usage: uncached))
        #expect(abs(withCache - 0.002997) < 1e-9)
        #expect(withCache < withoutCache / 3)
    }
}
