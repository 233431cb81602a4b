import Foundation
import SophonCore
import SophonGemini

/// The text `sophon test` prints (docs/commands.md, "test"): one line per file in path order,
/// then the details of each failure, then `N passed, N failed` over files; or, with `--tap`,
/// the same results as a TAP version 14 stream; or, with `--json`, the same results as data.
enum TestReport {
    /// `PASS path (N expects, 1.2 s)` or `FAIL path`.
    /// With `--models`: `PASS path [MODEL] (...)`.
    static func line(_ result: TestFileResult) -> String {
        let name = result.path + (result.model.map { " [\($0)]" } ?? "")
        guard result.passed else { return "FAIL \(name)" }
        return "PASS \(name) (\(result.expects) expects, \(String(format: "%.1f", result.seconds)) s)"
    }

    /// The files x models matrix of `test --models`: a header row (`file` and each model), then
    /// one row per file with `PASS` or `FAIL` under each model, in columns padded to line up.
    static func matrix(_ results: [TestFileResult], files: [String], models: [String]) -> [String] {
        let header = ["file"] + models
        let rows = files.map { file in
            [file]
                + models.map { model in
                    guard let result = results.first(where: { $0.path == file && $0.model == model }) else {
                        return "-"
                    }
                    return result.passed ? "PASS" : "FAIL"
                }
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }
    }

    /// The `--html` page: the tally and cost, a row per file with a cell per model (or one
    /// result column), and each run's expectations, failures, cost and exchanges.
    static func page(_ results: [TestFileResult], files: [String], models: [String]) -> HTMLReport {
        var summary = [tally(results)]
        if let cost = cost(results) { summary.append("cost: \(cost)") }
        let columns = models.isEmpty ? [nil] : models.map { Optional($0) }
        var index: [String: Int] = [:]
        for (position, result) in results.enumerated() {
            index[result.path + "\u{1F}" + (result.model ?? "")] = position
        }
        let rows = files.map { file in
            HTMLReport.Row(
                label: file,
                cells: columns.map { model in
                    guard let position = index[file + "\u{1F}" + (model ?? "")] else {
                        return .init(text: "-")
                    }
                    let result = results[position]
                    return .init(
                        text: result.passed ? "PASS" : "FAIL", status: result.passed ? .pass : .fail,
                        detail: "result-\(position + 1)")
                })
        }
        let details = results.enumerated().map { position, result in
            var sections: [(name: String, text: String)] = [
                ("expects", "\(result.expects) expects, \(String(format: "%.1f", result.seconds)) s")
            ]
            let failures = TestReport.details([result])
            if !failures.isEmpty { sections.append(("failures", failures.joined(separator: "\n"))) }
            if let cost = result.cost { sections.append(("cost", CostText.text(cost.doubleValue))) }
            return HTMLReport.Detail(
                id: "result-\(position + 1)", title: result.path + (result.model.map { " [\($0)]" } ?? ""),
                status: result.passed ? .pass : .fail, sections: sections,
                exchanges: result.exchanges.enumerated().map { exchange($1, number: $0 + 1) })
        }
        return HTMLReport(
            title: "sophon test", summary: summary,
            columns: ["file"] + (models.isEmpty ? ["result"] : models),
            rows: rows, details: details)
    }

    /// One exchange of a run as the page shows it: `request N: METHOD PATH`, the body sent, and
    /// the answer: its text first when it has some (a streamed answer's chunks joined), then the
    /// response as the tape holds it (status, body or events, or how it failed).
    static func exchange(_ exchange: GeminiTapeExchange, number: Int) -> HTMLReport.Exchange {
        let bodies: [JSONValue]
        switch exchange.response.payload {
        case .body(let body): bodies = [body]
        case .events(let events, _, _): bodies = events
        case .none: bodies = []
        }
        let text = bodies.map(answerText).joined()
        let response = exchange.response.jsonValue.prettyText
        return HTMLReport.Exchange(
            title: "request \(number): \(exchange.request.method) \(exchange.request.path)",
            request: exchange.request.body == .null ? "" : exchange.request.body.prettyText,
            answer: text.isEmpty ? response : text + "\n\n" + response)
    }

    /// The text parts (thoughts left out) of the first candidate of a generateContent reply or
    /// stream chunk; "" for anything else.
    private static func answerText(_ body: JSONValue) -> String {
        guard case .array(let parts)? = body["candidates"]?[0]?["content"]?["parts"] else { return "" }
        return parts.filter { $0["thought"] != .bool(true) }.compactMap { $0["text"]?.stringValue }.joined()
    }

    /// What the files' calls cost in all (`$X`, or `unknown` when any file's is); `nil` when no
    /// file made a call.
    static func cost(_ results: [TestFileResult]) -> String? {
        let costs = results.compactMap(\.cost)
        guard !costs.isEmpty else { return nil }
        return CostText.text(CostText.total(costs.map(\.doubleValue)))
    }

    /// The failure details: for an expectation, `FILE:LINE: failed: EXPECT LINE` and the
    /// message with both values indented below; for an error, `FILE:LINE: error: MESSAGE`.
    static func details(_ results: [TestFileResult]) -> [String] {
        results.flatMap { result in
            result.failures.flatMap { failure -> [String] in
                let location = failure.location + (result.model.map { " [\($0)]" } ?? "")
                if let expectation = failure.expectation {
                    return ["\(location): failed: \(expectation)", "    \(failure.message)"]
                }
                return ["\(location): error: \(failure.message)"]
            }
        }
    }

    /// `N passed, N failed`, counting files.
    static func tally(_ results: [TestFileResult]) -> String {
        let passed = results.filter(\.passed).count
        return "\(passed) passed, \(results.count - passed) failed"
    }

    /// The first lines of the TAP stream: the version and the plan.
    static func tapHeader(count: Int) -> [String] { ["TAP version 14", "1..\(count)"] }

    /// The TAP test point of the file numbered `number` (from 1), with a YAML diagnostic block
    /// listing the failures of a failed file.
    static func tapPoint(_ result: TestFileResult, number: Int) -> [String] {
        let description = (result.path + (result.model.map { " [\($0)]" } ?? ""))
            .replacingOccurrences(of: "#", with: "\\#")
        guard !result.passed else { return ["ok \(number) - \(description)"] }
        var lines = ["not ok \(number) - \(description)", "  ---", "  failures:"]
        for failure in result.failures {
            lines.append("    - location: \(yamlString(failure.location))")
            if let expectation = failure.expectation {
                lines.append("      expect: \(yamlString(expectation))")
            }
            lines.append("      message: \(yamlString(failure.message))")
        }
        lines.append("  ...")
        return lines
    }

    /// The last line of the TAP stream: the tally as a comment.
    static func tapTally(_ results: [TestFileResult]) -> String { "# " + tally(results) }

    /// `text` as a YAML double-quoted scalar.
    private static func yamlString(_ text: String) -> String {
        "\"" + yamlEscaper.escape(text) + "\""
    }

    /// The escapes of a YAML double-quoted scalar: other control characters and DEL as `\x1B`.
    private static let yamlEscaper = TextEscaper.backslashed { scalar in
        scalar.value < 0x20 || scalar.value == 0x7F ? String(format: "\\x%02X", scalar.value) : nil
    }

    /// The results as `--json` data: `passed` and `failed` (counting files) and `files`, one
    /// object per file in path order: `path`, `passed` (a bool), `expects` (a count) and
    /// `failures` (each with `location`, `expect` for a failed expectation, and `message`).
    /// No times: timings never go to stdout.
    static func data(_ results: [TestFileResult]) -> [JSONMember] {
        let passed = results.filter(\.passed).count
        let files = results.map { result in
            JSONValue.object(
                [JSONMember("path", .string(result.path))]
                    + (result.model.map { [JSONMember("model", .string($0))] } ?? []) + [
                        JSONMember("passed", .bool(result.passed)),
                        JSONMember("expects", .integer(result.expects)),
                        JSONMember(
                            "failures",
                            .array(
                                result.failures.map { failure in
                                    .object(
                                        [JSONMember("location", .string(failure.location))]
                                            + (failure.expectation.map { [JSONMember("expect", .string($0))] }
                                                ?? [])
                                            + [JSONMember("message", .string(failure.message))])
                                })),
                    ] + (result.cost.map { [JSONMember("cost", $0)] } ?? []))
        }
        return [
            JSONMember("passed", .integer(passed)), JSONMember("failed", .integer(results.count - passed)),
            JSONMember("files", .array(files)),
        ]
    }
}

/// The JUnit XML report of `sophon test --junit FILE` (docs/commands.md, "test"), in the shape
/// the common CI readers take (Jenkins, GitLab, GitHub reporters): `testsuites` holding one
/// `testsuite` named `sophon` (its `properties` carry the number of jobs, then an empty
/// `system-out` and `system-err`, as the stricter Ant-style schema requires), a `testcase` per
/// file (`name` = the path, `classname` = the path without `.sophon` and with `/` as `.`, `time`
/// in seconds) and a `failure` element per failed expectation or error (`type` = `expect` or
/// `error`). `failures` counts failed files.
enum JUnitReport {
    /// The whole document, UTF-8 with an XML declaration, ending with a newline.
    /// - Parameters:
    ///   - timestamp: when the run started (ISO 8601 without a zone, as the schema has it).
    ///   - hostname: the machine's name.
    ///   - jobs: the `--jobs` of the run, kept as the property `sophon.jobs`.
    static func document(
        _ results: [TestFileResult], seconds: Double, timestamp: Date, hostname: String, jobs: Int
    ) -> String {
        let failed = results.filter { !$0.passed }.count
        let totals =
            "tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(format(seconds))\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"sophon test\" \(totals)>",
            "  <testsuite name=\"sophon\" \(totals) timestamp=\"\(isoTimestamp(timestamp))\""
                + " hostname=\"\(escape(hostname))\" package=\"sophon\" id=\"0\">",
            "    <properties>",
            "      <property name=\"sophon.jobs\" value=\"\(jobs)\"/>",
            "    </properties>",
        ]
        for result in results {
            let attributes =
                "name=\"\(escape(result.path))\" classname=\"\(escape(className(result.path) + (result.model.map { ".\($0)" } ?? "")))\""
                + " time=\"\(format(result.seconds))\""
            guard !result.passed else {
                lines.append("    <testcase \(attributes)/>")
                continue
            }
            lines.append("    <testcase \(attributes)>")
            for failure in result.failures {
                let type = failure.isExpectation ? "expect" : "error"
                let body =
                    failure.expectation.map { "\(failure.location): \($0)\n\(failure.message)" }
                    ?? "\(failure.location): \(failure.message)"
                lines.append(
                    "      <failure type=\"\(type)\" message=\"\(escape(failure.message))\">"
                        + "\(escape(body))</failure>")
            }
            lines.append("    </testcase>")
        }
        lines += ["    <system-out/>", "    <system-err/>", "  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `examples/tour.sophon` as `examples.tour`.
    static func className(_ path: String) -> String {
        let base = path.hasSuffix(".sophon") ? String(path.dropLast(".sophon".count)) : path
        return base.split(separator: "/").filter { $0 != "." }.joined(separator: ".")
    }

    /// Seconds with three decimals.
    private static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    private static func isoTimestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// `text` escaped for an attribute or element: `& < > " '`, tabs and line ends as character
    /// references, and the characters XML 1.0 forbids dropped.
    static func escape(_ text: String) -> String { xmlEscaper.escape(text) }

    private static let xmlEscaper = TextEscaper(
        [
            "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;",
            "\r": "&#13;", "\t": "&#9;",
        ],
        otherwise: { $0.value < 0x20 || (0xFFFE...0xFFFF).contains($0.value) ? "" : nil })
}
