import Foundation
import SophonCore
import SophonLogs
import SophonTestSupport
import Testing

@testable import SophonShell

/// `--html FILE` (PRODUCT §14): one self-contained page; the summary and matrix in plain HTML,
/// each result in a `<details>` element. The rendering in Chromium is scripts/html-report-check.py.
@Suite(.childSlots) struct HTMLReportTests {
    static let report = HTMLReport(
        title: "sophon <test>", summary: ["1 passed, 1 failed", "cost: $0.50"],
        columns: ["file", "gemini-2.5-flash"],
        rows: [
            .init(label: "a.sophon", cells: [.init(text: "PASS", status: .pass, detail: "result-1")]),
            .init(label: "b&c.sophon", cells: [.init(text: "FAIL", status: .fail, detail: "result-2")]),
        ],
        differences: [#"$.title: "a" | "b""#],
        details: [
            .init(id: "result-1", title: "a.sophon", status: .pass, sections: [("answer", "<b>hi</b>")]),
            .init(id: "result-2", title: "b&c.sophon", status: .fail, sections: [("failures", "x 'y'")]),
        ])

    @Test func thePageIsSelfContainedAndReadableWithoutScript() {
        let page = Self.report.html
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
        #expect(page.contains("<title>sophon &lt;test&gt;</title>"))
        #expect(
            page.contains(
                "<section id=\"summary\">\n<p>1 passed, 1 failed</p>\n<p>cost: $0.50</p>\n</section>"))
        #expect(
            page.contains(
                "<tr class=\"fail\"><th scope=\"row\">b&amp;c.sophon</th>"
                    + "<td class=\"fail\"><a href=\"#result-2\">FAIL</a></td></tr>"))
        #expect(page.contains("<li><code>$.title: &quot;a&quot; | &quot;b&quot;</code></li>"))
        #expect(
            page.contains(
                "<details id=\"result-1\" class=\"result pass\"><summary>a.sophon</summary>\n"
                    + "<h3>answer</h3><pre>&lt;b&gt;hi&lt;/b&gt;</pre>\n</details>"))
        #expect(page.contains("<pre>x &#39;y&#39;</pre>"))
        // Inline style and script only; nothing is fetched.
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains(" src="))
        #expect(page.contains("<style>") && page.contains("<script>"))
        // The filters need the script: hidden until it runs.
        #expect(page.contains("<div id=\"filters\" hidden>"))
    }

    @Test func compareTestAndLogsWriteTheirReports() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: CompareShellTests.rules([
                ("gemini-2.5-flash", #"{"kind": "generate", "text": "one"}"#),
                ("gemini-2.5-pro", #"{"kind": "generate", "text": "two"}"#),
            ]))
        let compared = try await shell.run([
            "compare", "--html", "c.html", "--models", "gemini-2.5-flash,gemini-2.5-pro", "hi",
        ])
        #expect(compared.status == 0)
        let page = try #require(shell.read("c.html"))
        #expect(
            page.contains(
                "<th>model</th><th>result</th><th>latency</th><th>tokens</th><th>cost</th><th>schema</th>"))
        #expect(
            page.contains(
                "<th scope=\"row\">gemini-2.5-flash</th><td class=\"pass\"><a href=\"#result-1\">ok</a></td>")
        )
        // Each model's request and answer, expandable, in a <details> of its own.
        #expect(
            page.contains(
                "<details class=\"exchange\"><summary>request 1: gemini-2.5-flash</summary><h4>request</h4>"
                    + "<pre class=\"request\">{\n  &quot;contents&quot;: [\n    {\n      &quot;role&quot;: &quot;user&quot;,\n"
                    + "      &quot;parts&quot;: [\n        {\n          &quot;text&quot;: &quot;hi&quot;\n        }\n"
                    + "      ]\n    }\n  ]\n}</pre>"
                    + "<h4>answer</h4><pre class=\"answer\">one</pre></details>"))
        try shell.write("t.sophon", "expect 1 == 1\n")
        let tested = try await shell.run(["test", "--html", "t.html", "t.sophon"])
        #expect(tested.status == 0)
        #expect(shell.read("t.html")?.contains("<th scope=\"row\">t.sophon</th><td class=\"pass\">") == true)
        let logged = try await shell.run(["logs", "--html", "l.html"])
        #expect(logged.status == 0)
        let logs = try #require(shell.read("l.html"))
        #expect(logs.contains("<p>2 exchanges, 0 failed</p>"))
        #expect(logs.components(separatedBy: "<details id=\"entry-").count == 3)
        // Each logged exchange's prompt and answer, as the other reports show theirs.
        #expect(
            logs.contains(
                "<details class=\"exchange\"><summary>compare: gemini-2.5-pro</summary><h4>request</h4>"
                    + "<pre class=\"request\">hi</pre><h4>answer</h4><pre class=\"answer\">two</pre></details>"
            ))
    }

    /// `logs --html`'s summary counts its exchanges in words: `1 exchange`, `2 exchanges`.
    @Test func theLogsSummaryCountsOneExchangeInTheSingular() {
        let entry = LogEntry(
            id: 7, time: Date(timeIntervalSince1970: 0), command: "ask", model: "gemini-2.5-flash",
            prompt: "hi",
            answer: "hello")
        #expect(
            LogEntryView.page([entry]).html.contains(
                "<section id=\"summary\">\n<p>1 exchange, 0 failed</p>\n<p>total cost: unknown</p>\n</section>"
            ))
        var failed = entry
        failed.id = 8
        failed.error = "rateLimited: slow down"
        #expect(LogEntryView.page([entry, failed]).html.contains("<p>2 exchanges, 1 failed</p>"))
    }

    /// An exchange renders as its own `<details>`, its request and answer escaped.
    @Test func anExchangeIsItsOwnDetailsEscaped() {
        var report = Self.report
        report.details[0].exchanges = [
            .init(title: "request 1: <POST>", request: #"{"text": "a < b"}"#, answer: "<i>ok</i> & 'so'")
        ]
        #expect(
            report.html.contains(
                "<h3>answer</h3><pre>&lt;b&gt;hi&lt;/b&gt;</pre>\n"
                    + "<details class=\"exchange\"><summary>request 1: &lt;POST&gt;</summary>"
                    + "<h4>request</h4><pre class=\"request\">{&quot;text&quot;: &quot;a &lt; b&quot;}</pre>"
                    + "<h4>answer</h4><pre class=\"answer\">&lt;i&gt;ok&lt;/i&gt; &amp; &#39;so&#39;</pre></details>\n"
                    + "</details>"))
    }

    /// `test --html` shows each exchange of each file, read from the one record of a run's
    /// exchanges, its tape: recorded on the side for a file run live, the file's own tape when it
    /// records or replays one (the same exchanges, nothing sent on replay).
    @Test func testReportShowsEachRequestAndAnswer() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "<i>ok</i>"}"#])
        try shell.write("t.sophon", "set stream off\nask hi <b>\nexpect ${last} == \"<i>ok</i>\"\n")
        let exchange =
            "<details class=\"exchange\"><summary>request 1: POST /v1beta/models/gemini-3.8-flash:generateContent"
            + "</summary><h4>request</h4><pre class=\"request\">{\n  &quot;contents&quot;: [\n    {\n"
            + "      &quot;role&quot;: &quot;user&quot;,\n      &quot;parts&quot;: [\n        {\n"
            + "          &quot;text&quot;: &quot;hi &lt;b&gt;&quot;\n        }\n      ]\n    }\n  ]\n}</pre>"
            + "<h4>answer</h4><pre class=\"answer\">&lt;i&gt;ok&lt;/i&gt;\n\n{\n  &quot;status&quot;: 200,"
        let live = try await shell.run(["test", "--html", "live.html", "t.sophon"])
        #expect(live.status == 0)
        #expect(shell.read("live.html")?.contains(exchange) == true)
        #expect(shell.read("t.tape") == nil)
        try await shell.server.script([#"{"kind": "generate", "text": "<i>ok</i>"}"#])
        let recorded = try await shell.run(["test", "--record-missing", "--html", "rec.html", "t.sophon"])
        #expect(recorded.status == 0)
        #expect(shell.read("rec.html")?.contains(exchange) == true)
        #expect(shell.read("t.tape") != nil)
        let sent = try await shell.server.requests().count
        let replayed = try await shell.run(["test", "--html", "replay.html", "t.sophon"])
        #expect(replayed.status == 0)
        #expect(shell.read("replay.html")?.contains(exchange) == true)
        #expect(try await shell.server.requests().count == sent)
        // Without --html nothing is recorded on the side, and the report shows one exchange each.
        #expect(shell.read("live.html")?.components(separatedBy: "<details class=\"exchange\">").count == 2)
    }

    /// `--html` into a folder that does not exist is refused, and no folder is made (the
    /// report writer made the whole path from a typo).
    @Test func aReportIntoAMissingFolderIsRefusedAndNoFolderIsMade() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["logs", "--html", "missing/l.html"])
        #expect(
            outcome.stderr == "error: logs: --html: the folder '\(shell.home.path)/missing' does not exist\n")
        #expect(outcome.status == 1)
        #expect(!FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("missing").path))
    }

    /// `test`, `compare` and `logs` check an `--html` path with one check (``OutputFolder``)
    /// before their work: an empty name is refused (it was the current folder), and a folder
    /// is named as one.
    @Test func oneCheckRefusesAnEmptyNameAndAFolder() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("reports"), withIntermediateDirectories: false)
        let logs = try await shell.run(["logs", "--html", ""])
        #expect(logs == .init(stdout: "", stderr: "error: logs: --html needs a file name\n", status: 1))
        try shell.write("t.sophon", "expect 1 == 1\n")
        let tested = try await shell.run(["test", "--html", "reports", "t.sophon"])
        #expect(
            tested
                == .init(
                    stdout: "",
                    stderr:
                        "sophon: test: --html: cannot replace 'reports': it is a folder, not a regular file\n",
                    status: 2))
    }
}
