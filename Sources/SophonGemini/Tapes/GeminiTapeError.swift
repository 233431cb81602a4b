import Foundation

/// A failure to read, write or replay a tape. Descriptions are one line, in English, and name
/// the tape line or the request (1-based) they are about.
public enum GeminiTapeError: Error, Sendable, Hashable {
    /// The tape file could not be read.
    case unreadable(path: String, reason: String)
    /// The tape file could not be created or written.
    case unwritable(path: String, reason: String)
    /// The first line is not the header `{"sophonTape": 1}` (or the tape is empty).
    case missingHeader(line: Int)
    /// The header names a format version this code does not read.
    case unsupportedVersion(String, line: Int)
    /// A line is not valid JSON (a cut last line is tolerated, not reported here);
    /// `column` is 1-based within the line.
    case invalidJSON(line: Int, column: Int, message: String)
    /// A line is JSON but not an exchange: `reason` names the field.
    case invalidExchange(line: Int, reason: String)
    /// A request differs from the recorded one.
    case mismatch(GeminiTapeMismatch)
    /// A request arrived after the last recorded exchange.
    case exhausted(request: Int, method: String, path: String)
}

/// How a request differs from the one recorded at its place on the tape.
public struct GeminiTapeMismatch: Sendable, Hashable {
    /// The field that differs.
    public enum Field: String, Sendable, Hashable {
        /// The HTTP method.
        case method
        /// The path and query.
        case path
        /// The body, compared as JSON values.
        case body
    }

    /// The 1-based number of the request in the run.
    public var request: Int
    /// The 1-based tape line of the recorded exchange.
    public var line: Int
    /// The first field that differs (method, then path, then body).
    public var field: Field
    /// For a body, the JSON path of the first difference (`$.contents[0].parts[0].text`).
    public var jsonPath: String?
    /// The recorded value, shortened for display (compact JSON for body values, `(absent)`
    /// for a missing member or element).
    public var recorded: String
    /// The value sent in this run, shortened the same way.
    public var got: String

    /// Creates a mismatch description.
    public init(request: Int, line: Int, field: Field, jsonPath: String? = nil, recorded: String, got: String)
    {
        self.request = request
        self.line = line
        self.field = field
        self.jsonPath = jsonPath
        self.recorded = recorded
        self.got = got
    }
}

extension GeminiTapeError: CustomStringConvertible, LocalizedError {
    /// One line: `line 3: invalid JSON at column 5: ...`,
    /// `request 3: body differs at $.contents[0].parts[0].text: recorded "Name a book", got "Name a film"`,
    /// `the tape has no more exchanges (request 4: POST /v1beta/models/m:generateContent)`.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read the tape \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write the tape \(path): \(reason)"
        case .missingHeader(let line):
            "line \(line): not a Sophon tape (the first line must be {\"sophonTape\": 1})"
        case .unsupportedVersion(let version, let line):
            "line \(line): unsupported tape version \(version) (this build reads version 1)"
        case .invalidJSON(let line, let column, let message):
            "line \(line): invalid JSON at column \(column): \(message)"
        case .invalidExchange(let line, let reason): "line \(line): not a tape exchange: \(reason)"
        case .mismatch(let mismatch): mismatch.description
        case .exhausted(let request, let method, let path):
            "the tape has no more exchanges (request \(request): \(method) \(path))"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

extension GeminiTapeMismatch: CustomStringConvertible {
    /// `request 3: body differs at $.x: recorded 1, got 2`, or
    /// `request 3: path differs: recorded /v1beta/a, got /v1beta/b`.
    public var description: String {
        let place = jsonPath.map { " at \($0)" } ?? ""
        return "request \(request): \(field.rawValue) differs\(place): recorded \(recorded), got \(got)"
    }
}
