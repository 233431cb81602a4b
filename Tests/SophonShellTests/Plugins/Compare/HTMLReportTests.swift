import Foundation
import SophonCore
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
        try await shell.server.script([
            #"{"kind": "generate", "text": "one"}"#, #"{"kind": "generate", "text": "two"}"#,
        ])
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
        #expect(page.contains("<h3>request</h3><pre>{\n  &quot;contents&quot; : ["))
        try shell.write("t.sophon", "expect 1 == 1\n")
        let tested = try await shell.run(["test", "--html", "t.html", "t.sophon"])
        #expect(tested.status == 0)
        #expect(shell.read("t.html")?.contains("<th scope=\"row\">t.sophon</th><td class=\"pass\">") == true)
        let logged = try await shell.run(["logs", "--html", "l.html"])
        #expect(logged.status == 0)
        let logs = try #require(shell.read("l.html"))
        #expect(logs.contains("<p>2 exchanges, 0 failed</p>"))
        #expect(logs.components(separatedBy: "<details id=\"entry-").count == 3)
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
}
