import Foundation
import SophonCore

/// The rows of an `embed-multi` input, read one at a time (docs/embeddings.md): JSON Lines (one
/// object per line; blank lines skipped) or CSV (RFC 4180: a header row naming the columns,
/// quoted fields with `""` for a quote and line breaks inside quotes) when the file name ends in
/// `.csv`. Each row gives an ID (a string, or a number as written), a text, and the other fields
/// as metadata.
final class EmbeddingInputReader {
    /// One row.
    struct Row {
        /// The 1-based line the row starts on.
        var line: Int
        var id: String
        var text: String
        /// The other fields as a compact JSON object; `nil` when there are none.
        var metadata: String?
    }

    private let lines: BulkLineReader
    private let path: String
    private let idField: String
    private let textField: String
    private let isCSV: Bool
    private var header: [String]?

    /// Opens `path` (shown as `shown` in messages).
    /// - Throws: ``CommandFailure`` (`fileError`) when it cannot be read; (`invalidInput`) when a
    ///   CSV header lacks a named column.
    init(path: String, shown: String, idField: String, textField: String) throws {
        lines = try BulkLineReader(path: path, command: "embed-multi")
        self.path = shown
        self.idField = idField
        self.textField = textField
        isCSV = path.lowercased().hasSuffix(".csv")
        if isCSV {
            guard let (line, fields) = try record() else {
                throw bad(1, "no header row")
            }
            for field in [idField, textField] where !fields.contains(field) {
                throw bad(
                    line,
                    "no column '\(field)' (the columns are \(fields.map { "'\($0)'" }.joined(separator: ", ")))"
                )
            }
            header = fields
        }
    }

    /// The next row, or `nil` at the end.
    /// - Throws: ``CommandFailure`` (`invalidInput`) naming `FILE:LINE` for a line that is not a
    ///   JSON object, a missing ID or text, or an empty text.
    func next() throws -> Row? {
        if let header {
            guard let (line, fields) = try record() else { return nil }
            guard fields.count == header.count else {
                throw bad(line, "\(fields.count) fields where the header has \(header.count)")
            }
            let members = zip(header, fields).map { JSONMember($0, .string($1)) }
            return try row(line, .object(members))
        }
        while let line = lines.next() {
            let members: [JSONMember]?
            do {
                members = try line.object()
            } catch {
                throw bad(error.line, error.message)
            }
            guard let members else { continue }
            return try row(line.number, .object(members))
        }
        return nil
    }

    private func row(_ line: Int, _ value: JSONValue) throws -> Row {
        guard case .object(let members) = value else { throw bad(line, "not a JSON object") }
        let id: String
        switch value[idField] {
        case .string(let text)?: id = text
        case .number?: id = value[idField]?.compactText ?? ""
        default: throw bad(line, "no '\(idField)' (a string or a number)")
        }
        guard case .string(let text)? = value[textField] else {
            throw bad(line, "no '\(textField)' (a string)")
        }
        guard !text.allSatisfy(\.isWhitespace) else { throw bad(line, "'\(textField)' is empty") }
        let rest = members.filter { $0.key != idField && $0.key != textField }
        return Row(
            line: line, id: id, text: text, metadata: rest.isEmpty ? nil : JSONValue.object(rest).compactText)
    }

    /// The next CSV record (its first line, its fields), joining lines while a quote is open.
    private func record() throws -> (Int, [String])? {
        guard var line = lines.next() else { return nil }
        while line.text?.isEmpty == true, let following = lines.next() { line = following }
        guard var text = line.text else { throw bad(line.number, line.unreadable) }
        if text.isEmpty { return nil }
        var breakBefore = line.endedWithCRLF ? "\r\n" : "\n"
        while true {
            if let fields = Self.fields(text) { return (line.number, fields) }
            guard let more = lines.next() else { throw bad(line.number, "a quoted field is not closed") }
            guard let moreText = more.text else { throw bad(more.number, "not valid UTF-8") }
            // The line break inside the quotes, as the file has it (RFC 4180).
            text += breakBefore + moreText
            breakBefore = more.endedWithCRLF ? "\r\n" : "\n"
        }
    }

    /// The fields of one CSV record; `nil` while a quoted field is still open.
    static func fields(_ text: String) -> [String]? {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = text.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if quoted {
                if character == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" && field.isEmpty {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        if quoted { return nil }
        fields.append(field)
        return fields
    }

    /// Reads every row, refusing the first ID given twice (`duplicate id 'a' (first on line
    /// 1)`): a second row would overwrite the first, paid for and lost.
    /// - Returns: how many rows there are.
    /// - Throws: what ``next()`` throws; ``CommandFailure`` (`invalidInput`) for a duplicate.
    func checkAll() throws -> Int {
        var first: [String: Int] = [:]
        var count = 0
        while let row = try next() {
            if let earlier = first[row.id] {
                throw bad(row.line, "duplicate id '\(row.id)' (first on line \(earlier))")
            }
            first[row.id] = row.line
            count += 1
        }
        return count
    }

    private func bad(_ line: Int, _ message: String) -> CommandFailure {
        CommandFailure(kind: .invalidInput, message: "embed-multi: \(path):\(line): \(message)")
    }
}
