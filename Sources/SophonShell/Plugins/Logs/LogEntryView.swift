import Foundation
import SophonCore
import SophonLogs

/// How `logs` prints an entry: one line in a list, all of it for `logs show`, or a JSON object
/// for `--json` (docs/logs.md).
enum LogEntryView {
    /// `2026-12-01T17:50:01.250Z`: UTC, milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `ID  TIME  COMMAND  MODEL  PROMPT -> ANSWER` (first line of each, at most 60 characters;
    /// `error: MESSAGE` in place of the answer of a failed call).
    static func line(_ entry: LogEntry) -> String {
        let outcome = entry.error.map { "error: " + $0 } ?? entry.answer ?? ""
        return "\(entry.id ?? 0)  \(timestamp(entry.time))  \(entry.command)  \(entry.model)  "
            + "\(short(entry.prompt)) -> \(short(outcome))"
    }

    private static func short(_ text: String) -> String {
        let first = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let clipped = String(first.prefix(59))
        return clipped == text ? text : clipped + "…"
    }

    /// `logs show ID`: one `name: value` line per member, then the prompt and the answer in full.
    static func details(_ entry: LogEntry) -> String {
        var lines = [
            "id: \(entry.id ?? 0)",
            "time: \(timestamp(entry.time))",
            "command: \(entry.command)",
        ]
        if let conversation = entry.conversationID { lines.append("conversation: \(conversation)") }
        lines += [
            "model: \(entry.model)",
            "duration: \(entry.durationMilliseconds) ms",
            "usage: \(entry.promptTokens) in / \(entry.outputTokens) out / \(entry.thoughtsTokens) thoughts"
                + " / \(entry.totalTokens) total",
            "cost: \(CostText.text(entry.cost))",
        ]
        if let system = entry.systemInstruction { lines.append("system: \(system)") }
        if let schema = entry.schema { lines.append("schema: \(schema)") }
        if let settings = entry.settings { lines.append("settings: \(settings)") }
        if let media = entry.media { lines.append("media: \(media)") }
        if let error = entry.error { lines.append("error: \(error)") }
        lines += ["prompt:", entry.prompt]
        if let answer = entry.answer { lines += ["answer:", answer] }
        return lines.joined(separator: "\n")
    }

    /// The `--html` page of `entries`: a row per exchange (time, command, model, tokens, cost,
    /// outcome), and each one's system instruction, schema, error and cost, and its exchange (the
    /// prompt and the answer), in full.
    static func page(_ entries: [LogEntry]) -> HTMLReport {
        let failed = entries.filter { $0.error != nil }.count
        let total = CostText.total(entries.map(\.cost))
        let rows = entries.map { entry in
            HTMLReport.Row(
                label: "\(entry.id ?? 0)",
                cells: [
                    .init(text: timestamp(entry.time)), .init(text: entry.command), .init(text: entry.model),
                    .init(
                        text:
                            "\(entry.promptTokens) in / \(entry.outputTokens) out / \(entry.thoughtsTokens) thoughts"
                    ),
                    .init(text: CostText.text(entry.cost)),
                    .init(
                        text: entry.error == nil ? "ok" : "error", status: entry.error == nil ? .pass : .fail,
                        detail: "entry-\(entry.id ?? 0)"),
                ])
        }
        let details = entries.map { entry in
            var sections: [(name: String, text: String)] = []
            if let system = entry.systemInstruction { sections.append(("system", system)) }
            if let schema = entry.schema { sections.append(("schema", schema)) }
            if let error = entry.error { sections.append(("error", error)) }
            sections.append(("cost", CostText.text(entry.cost)))
            // The exchange as the other reports show theirs: the prompt sent, the answer got.
            let exchange = HTMLReport.Exchange(
                title: "\(entry.command): \(entry.model)", request: entry.prompt,
                answer: entry.answer ?? "no answer: " + (entry.error ?? "none"))
            return HTMLReport.Detail(
                id: "entry-\(entry.id ?? 0)", title: line(entry), status: entry.error == nil ? .pass : .fail,
                sections: sections, exchanges: [exchange])
        }
        return HTMLReport(
            title: "sophon logs",
            summary: [
                "\(entries.count) exchange\(entries.count == 1 ? "" : "s"), \(failed) failed",
                "total cost: \(CostText.text(total))",
            ],
            columns: ["id", "time", "command", "model", "tokens", "cost", "result"], rows: rows,
            details: details)
    }

    /// The entry as a JSON object (absent members omitted; `schema`, `settings` and `media` as
    /// JSON, not text).
    static func object(_ entry: LogEntry) -> JSONValue {
        func json(_ text: String?) -> JSONValue? { text.flatMap { try? JSONValue(parsing: $0) } }
        var members = [
            JSONMember("id", .integer(Int(entry.id ?? 0))),
            JSONMember("time", .string(timestamp(entry.time))),
            JSONMember("command", .string(entry.command)),
        ]
        if let conversation = entry.conversationID {
            members.append(JSONMember("conversation", .string(conversation)))
        }
        members += [
            JSONMember("model", .string(entry.model)),
            JSONMember("prompt", .string(entry.prompt)),
        ]
        if let system = entry.systemInstruction { members.append(JSONMember("system", .string(system))) }
        if let schema = json(entry.schema) { members.append(JSONMember("schema", schema)) }
        if let settings = json(entry.settings) { members.append(JSONMember("settings", settings)) }
        if let media = json(entry.media) { members.append(JSONMember("media", media)) }
        if let answer = entry.answer { members.append(JSONMember("answer", .string(answer))) }
        if let error = entry.error { members.append(JSONMember("error", .string(error))) }
        members += [
            JSONMember(
                "usage",
                .object([
                    JSONMember("promptTokens", .integer(entry.promptTokens)),
                    JSONMember("outputTokens", .integer(entry.outputTokens)),
                    JSONMember("thoughtsTokens", .integer(entry.thoughtsTokens)),
                    JSONMember("totalTokens", .integer(entry.totalTokens)),
                ])),
            JSONMember("cost", CostText.value(entry.cost)),
            JSONMember("durationMs", .integer(entry.durationMilliseconds)),
        ]
        return .object(members)
    }
}
