import Foundation
import SophonCore

/// One self-contained HTML report (`--html FILE` of `sophon test`, `compare` and `logs`;
/// docs/html-reports.md): inline CSS and JavaScript, nothing fetched from the network. The
/// summary and the results matrix are plain HTML, readable without JavaScript; each result's
/// request, answer, differences and cost sit in a `<details>` element that opens without
/// JavaScript too, and inside it each exchange (a request sent and the answer it got) in a
/// `<details class="exchange">` of its own. The script only adds a filter (text and failures only), opens a result when
/// its matrix cell is clicked, and records how long the page took to open (`data-opened-ms` on
/// `<body>`, for the Chromium check).
struct HTMLReport: Sendable {
    /// How a cell or a result went.
    enum Status: String, Sendable {
        case pass, fail, info
    }

    /// One cell of the matrix; `detail` is the ``Detail/id`` it opens.
    struct Cell: Sendable {
        var text: String
        var status: Status = .info
        var detail: String?
    }

    /// One row of the matrix: its label, then a cell per column after the first.
    struct Row: Sendable {
        var label: String
        var cells: [Cell]
    }

    /// One exchange of a result, expandable on its own: what was sent and what came back, as
    /// preformatted text (`<pre class="request">`, `<pre class="answer">`).
    struct Exchange: Sendable, Equatable {
        /// The summary line (`request 1: POST /v1beta/models/...:generateContent`).
        var title: String
        var request: String
        /// The answer, or why there was none.
        var answer: String
    }

    /// One result, expandable: its title, named sections of preformatted text (expectations,
    /// failures, error, usage, cost), then its exchanges.
    struct Detail: Sendable {
        var id: String
        var title: String
        var status: Status
        var sections: [(name: String, text: String)]
        var exchanges: [Exchange] = []
    }

    var title: String
    /// Lines of the summary, shown first.
    var summary: [String]
    /// The matrix's header: the row label's, then one per column.
    var columns: [String]
    var rows: [Row]
    /// Field-by-field differences (`$.year: 1965 | 1966`), when there are any.
    var differences: [String] = []
    var details: [Detail]

    /// Writes the page to `path` atomically, in a folder that exists (``OutputFolder``).
    /// - Throws: ``CommandFailure`` (`fileError`) naming `command` and the path.
    func write(to path: String, command: String) throws {
        try OutputFolder.require(path, command: "\(command): --html")
        do {
            try AtomicFile.write(Data(html.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(command): --html: \(error)")
        }
    }

    /// The page.
    var html: String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="sophon">
            <title>\(Self.escape(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>\(Self.escape(title))</h1>
            <section id="summary">

            """
        for line in summary { page += "<p>\(Self.escape(line))</p>\n" }
        page +=
            "</section>\n<div id=\"filters\" hidden><input id=\"filter\" type=\"search\" placeholder=\"filter\">"
        page += " <label><input id=\"failures\" type=\"checkbox\"> failures only</label></div>\n"
        page += "<table id=\"matrix\">\n<thead><tr>"
        for column in columns { page += "<th>\(Self.escape(column))</th>" }
        page += "</tr></thead>\n<tbody>\n"
        for row in rows {
            let failed = row.cells.contains { $0.status == .fail }
            page +=
                "<tr class=\"\(failed ? "fail" : "pass")\"><th scope=\"row\">\(Self.escape(row.label))</th>"
            for cell in row.cells {
                let text = Self.escape(cell.text)
                let body = cell.detail.map { "<a href=\"#\(Self.escape($0))\">\(text)</a>" } ?? text
                page += "<td class=\"\(cell.status.rawValue)\">\(body)</td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody>\n</table>\n"
        if !differences.isEmpty {
            page += "<section id=\"differences\">\n<h2>Differences</h2>\n<ul>\n"
            for line in differences { page += "<li><code>\(Self.escape(line))</code></li>\n" }
            page += "</ul>\n</section>\n"
        }
        page += "<section id=\"details\">\n<h2>Results</h2>\n"
        for detail in details {
            page += "<details id=\"\(Self.escape(detail.id))\" class=\"result \(detail.status.rawValue)\">"
            page += "<summary>\(Self.escape(detail.title))</summary>\n"
            for section in detail.sections {
                page += "<h3>\(Self.escape(section.name))</h3><pre>\(Self.escape(section.text))</pre>\n"
            }
            for exchange in detail.exchanges {
                page += "<details class=\"exchange\"><summary>\(Self.escape(exchange.title))</summary>"
                page += "<h4>request</h4><pre class=\"request\">\(Self.escape(exchange.request))</pre>"
                page +=
                    "<h4>answer</h4><pre class=\"answer\">\(Self.escape(exchange.answer))</pre></details>\n"
            }
            page += "</details>\n"
        }
        page += "</section>\n<script>\(Self.script)</script>\n</body>\n</html>\n"
        return page
    }

    /// `text` with `& < > " '` escaped for HTML text and attribute values.
    static func escape(_ text: String) -> String { escaper.escape(text) }

    private static let escaper = TextEscaper([
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ])

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1b1b;background:#fff}
        h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em;margin:.8em 0 .2em}
        #summary p{margin:.2em 0;font-weight:600}
        table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.3em .6em;text-align:left}
        thead th{background:#f2f2f2}td.pass{background:#e6f4ea;color:#0d652d}td.fail{background:#fce8e6;color:#a50e0e}
        td a{color:inherit}details{border:1px solid #ddd;border-radius:4px;margin:.4em 0;padding:.3em .6em}
        details.fail{border-color:#e8a19b}summary{cursor:pointer;font-weight:600}
        details.exchange{border-style:dashed;margin:.5em 0}details.exchange summary{font-weight:500}
        h4{font-size:.9em;margin:.5em 0 .2em}
        pre{white-space:pre-wrap;word-break:break-word;background:#f8f8f8;padding:.5em;margin:0}
        code{font-family:ui-monospace,monospace}#filters{margin:1em 0}.hidden{display:none}
        """

    private static let script = """
        (function(){
        var filters=document.getElementById('filters');filters.hidden=false;
        var text=document.getElementById('filter'),failures=document.getElementById('failures');
        var rows=document.querySelectorAll('#matrix tbody tr'),results=document.querySelectorAll('details.result');
        function apply(){var q=text.value.toLowerCase(),f=failures.checked;
        rows.forEach(function(r){var hide=(f&&!r.classList.contains('fail'))||(q&&r.textContent.toLowerCase().indexOf(q)<0);
        r.classList.toggle('hidden',!!hide);});
        results.forEach(function(d){var hide=(f&&!d.classList.contains('fail'))||(q&&d.textContent.toLowerCase().indexOf(q)<0);
        d.classList.toggle('hidden',!!hide);});}
        text.addEventListener('input',apply);failures.addEventListener('change',apply);
        document.querySelectorAll('#matrix a').forEach(function(a){a.addEventListener('click',function(){
        var d=document.getElementById(a.getAttribute('href').slice(1));if(d){d.open=true;}});});
        document.body.setAttribute('data-opened-ms',String(Math.round(performance.now())));
        })();
        """
}
