import Foundation
import SophonCore

/// A named piece of shell input: a script file, one `-c` line, stdin, or what the REPL has
/// collected so far.
///
/// The text is normalised once, on creation: a UTF-8 byte order mark at the very start is
/// dropped and CRLF line ends become LF, so columns and lines never count a `\r`. The lexer
/// works on Unicode scalars; columns shown to people count characters (grapheme clusters).
struct ShellSource: Sendable, Equatable {
    /// The name used in messages: a path as given (`examples/tour.sophon`), `-c:1` for the
    /// first `-c` line, `<stdin>`, or `<input>` for the REPL.
    let name: String
    /// The normalised text (no BOM, LF line ends).
    let text: String
    /// The text as Unicode scalars, the unit the lexer reads.
    let scalars: [Unicode.Scalar]
    /// Scalar offsets where each physical line starts; `lineStarts[0] == 0`.
    let lineStarts: [Int]
    /// The number of the text's first line in the whole input: 1, or more for a later piece of
    /// a script read from a pipe as it arrives (``StandardInputScript``). Every line number this
    /// source takes or gives counts from the whole input's start.
    let firstLine: Int
    /// Lines that were not valid UTF-8 (1-based line -> scalar offset of the first invalid
    /// sequence, now U+FFFD). Empty for sources made from a `String`.
    let invalidLines: [Int: Int]

    /// Wraps `text` under `name`, dropping a leading BOM and turning CRLF into LF.
    ///
    /// - Parameters:
    ///   - name: the name shown in error locations.
    ///   - text: the input; may be empty, may or may not end with a newline.
    init(name: String, text: String) {
        self.init(name: name, text: text, invalidPrefixes: [:], firstLine: 1)
    }

    /// Decodes `bytes` as UTF-8 line by line; a line that is not valid UTF-8 has its bad
    /// sequences replaced by U+FFFD and is listed in ``invalidLines``, so the command holding it
    /// fails with its location while the others run.
    ///
    /// - Parameters:
    ///   - name: the name shown in error locations.
    ///   - bytes: the file's content (BOM and CRLF handled as in ``init(name:text:)``).
    ///   - firstLine: the number of the first line of `bytes` in the whole input; past 1 the
    ///     bytes are a later piece of it (whole lines), where a BOM is an ordinary character.
    init(name: String, bytes: some Collection<UInt8>, firstLine: Int = 1) {
        var text = ""
        var invalidPrefixes: [Int: Int] = [:]
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { text += "\n" }
            if let valid = String(validating: line, as: UTF8.self) {
                text += valid
                continue
            }
            invalidPrefixes[index + 1] = (UTF8Validator.firstInvalid(in: line)?.column ?? 1) - 1
            text += String(decoding: line, as: UTF8.self)
        }
        self.init(name: name, text: text, invalidPrefixes: invalidPrefixes, firstLine: firstLine)
    }

    private init(name: String, text: String, invalidPrefixes: [Int: Int], firstLine: Int) {
        let dropsBOM = firstLine == 1 && text.unicodeScalars.first == "\u{FEFF}"
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var previousWasCR = false
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 0, dropsBOM { continue }
            if scalar == "\n", previousWasCR { scalars.removeLast() }
            previousWasCR = scalar == "\r"
            scalars.append(scalar)
        }
        var lineStarts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" {
            lineStarts.append(offset + 1)
        }
        self.name = name
        self.scalars = scalars
        self.lineStarts = lineStarts
        self.firstLine = firstLine
        let droppedBOM = dropsBOM ? 1 : 0
        var invalidLines: [Int: Int] = [:]
        for (line, prefix) in invalidPrefixes where line <= lineStarts.count {
            invalidLines[line + firstLine - 1] = lineStarts[line - 1] + prefix - (line == 1 ? droppedBOM : 0)
        }
        self.invalidLines = invalidLines
        var normalised = String.UnicodeScalarView()
        normalised.append(contentsOf: scalars)
        self.text = String(normalised)
    }

    /// The number of physical lines (a final newline does not start a new line).
    var lineCount: Int {
        if let last = lineStarts.last, last == scalars.count, lineStarts.count > 1 {
            return lineStarts.count - 1
        }
        return lineStarts.count
    }

    /// The 1-based physical line that holds scalar offset `offset` (offsets past the end
    /// belong to the last line), counted from the whole input's start (``firstLine``).
    func line(containing offset: Int) -> Int {
        localLine(containing: offset) + firstLine - 1
    }

    /// ``line(containing:)`` counted from this text's own first line.
    private func localLine(containing offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // An offset at the very end, just after a final newline, reports the line it ends.
        if low > 0, lineStarts[low] == scalars.count, offset >= scalars.count { return low }
        return low + 1
    }

    /// The text of 1-based physical line `number` (counted as ``line(containing:)`` counts)
    /// without its newline; empty when out of range.
    func lineText(_ number: Int) -> String {
        let number = number - firstLine + 1
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineStarts[number - 1]
        var end = start
        while end < scalars.count, scalars[end] != "\n" { end += 1 }
        return string(from: start, to: end)
    }

    /// The 1-based column, in characters, of scalar offset `offset` on its line.
    func column(of offset: Int) -> Int {
        let line = localLine(containing: offset)
        let start = lineStarts[line - 1]
        return string(from: start, to: min(max(offset, start), scalars.count)).count + 1
    }

    /// The text of the scalars in `start..<end` (clamped to the input).
    func string(from start: Int, to end: Int) -> String {
        let lower = min(max(start, 0), scalars.count)
        let upper = min(max(end, lower), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[lower..<upper])
        return String(view)
    }

    /// A syntax error at scalar offset `offset` of this source.
    ///
    /// - Parameters:
    ///   - message: what is wrong, without location (`invalid escape '\q' in double quotes`).
    ///   - offset: where the caret goes.
    ///   - isIncomplete: whether the input ended inside an open construct (quote, `"""`,
    ///     trailing backslash), which the REPL answers with a continuation prompt.
    func error(_ message: String, at offset: Int, isIncomplete: Bool = false) -> ShellSyntaxError {
        let line = line(containing: offset)
        return ShellSyntaxError(
            sourceName: name, line: line, column: column(of: offset), message: message,
            sourceLine: lineText(line), isIncomplete: isIncomplete)
    }
}

/// Reading `.sophon` scripts (docs/language.md): text files only, UTF-8 checked line by line,
/// BOM and CRLF accepted.
enum ScriptFile {
    /// Why a script cannot be read: for the command line, a usage error (exit 2).
    struct LoadError: Error, Equatable {
        /// `'PATH': no such file`, `'PATH' is a directory`, `'PATH' is not a text file`, ...
        var message: String
    }

    /// How much of a file is searched for a NUL byte before deciding it is text.
    static let binaryProbeLength = 8 * 1024

    /// The largest script read, in bytes.
    static let maximumLength = 64 * 1024 * 1024

    /// Reads the script at `path` into a source named `name` (default: `path`).
    /// - Throws: ``LoadError`` when it is missing, a directory, unreadable, too large, or
    ///   binary (a NUL byte in its first 8 KiB).
    static func load(_ path: String, name: String? = nil) throws(LoadError) -> ShellSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadError(message: "'\(path)': no such file")
        }
        guard !isDirectory.boolValue else { throw LoadError(message: "'\(path)' is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LoadError(message: "'\(path)': permission denied")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumLength + 1) ?? Data()
        } catch {
            throw LoadError(message: "'\(path)': cannot read: \(error.localizedDescription)")
        }
        guard data.count <= maximumLength else {
            throw LoadError(message: "'\(path)' is larger than \(maximumLength) bytes")
        }
        guard !data.prefix(binaryProbeLength).contains(0) else {
            throw LoadError(message: "'\(path)' is not a text file")
        }
        return ShellSource(name: name ?? path, bytes: Array(data))
    }

    /// The folder of `path` as written (`examples` for `examples/tour.sophon`, `.` for a bare
    /// name), so nested `source` lines and messages keep relative paths readable.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
