import Foundation
import SophonCore

extension GeminiTapeExchange {
    /// The exchange as one tape line's JSON value (member order: request, response).
    public var jsonValue: JSONValue {
        .object([JSONMember("request", request.jsonValue), JSONMember("response", response.jsonValue)])
    }

    /// Reads an exchange from one tape line's JSON value.
    /// - Parameters:
    ///   - json: the parsed line.
    ///   - line: the 1-based line number, kept in ``line`` and used in errors.
    /// - Throws: ``GeminiTapeError/invalidExchange(line:reason:)`` naming the first field that
    ///   is missing or has the wrong type.
    public init(json: JSONValue, line: Int) throws(GeminiTapeError) {
        let fields = TapeFields(json, at: "", line: line)
        try fields.requireObject()
        guard let request = json["request"] else { throw fields.failure("request is missing") }
        guard let response = json["response"] else { throw fields.failure("response is missing") }
        self.init(
            request: try GeminiTapeRequest(json: request, line: line),
            response: try GeminiTapeResponse(json: response, line: line), line: line)
    }
}

extension GeminiTapeRequest {
    /// The request as a JSON value: `{"method", "path", "body"}`.
    public var jsonValue: JSONValue {
        .object([
            JSONMember("method", .string(method)), JSONMember("path", .string(path)),
            JSONMember("body", body),
        ])
    }

    init(json: JSONValue, line: Int) throws(GeminiTapeError) {
        let fields = TapeFields(json, at: "request", line: line)
        try fields.requireObject()
        self.init(
            method: try fields.string("method"), path: try fields.string("path"), body: json["body"] ?? .null)
    }
}

extension GeminiTapeResponse {
    /// The response as a JSON value; see ``GeminiTapeResponse`` for the fields.
    public var jsonValue: JSONValue {
        var members: [JSONMember] = []
        if let status { members.append(JSONMember("status", .integer(status))) }
        if status != nil || !headers.isEmpty {
            let sorted = headers.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) }
            members.append(JSONMember("headers", .object(sorted)))
        }
        switch payload {
        case .none: break
        case .body(let body): members.append(JSONMember("body", body))
        case .events(let events, let trailer, let unterminated):
            members.append(JSONMember("events", .array(events)))
            if let trailer { members.append(JSONMember("trailer", trailer)) }
            if let unterminated { members.append(JSONMember("unterminated", .string(unterminated))) }
        }
        switch failure {
        case .none: break
        case .transport(let failure, let detail):
            members += [
                JSONMember("error", .string("transport")), JSONMember("failure", .string(failure.rawValue)),
                JSONMember("detail", .string(detail)),
            ]
        case .cancelled:
            members.append(JSONMember("error", .string("cancelled")))
        }
        return .object(members)
    }

    init(json: JSONValue, line: Int) throws(GeminiTapeError) {
        let fields = TapeFields(json, at: "response", line: line)
        try fields.requireObject()
        let status = try fields.optionalStatus()
        var headers: [String: String] = [:]
        if let value = json["headers"] {
            guard case .object(let members) = value else { throw fields.failure("headers must be an object") }
            for member in members {
                guard case .string(let text) = member.value else {
                    throw fields.failure("headers.\(member.key) must be a string")
                }
                headers[member.key.lowercased()] = text
            }
        }
        let failure = try Self.failure(fields)
        guard status != nil || failure != nil else {
            throw fields.failure("status is missing (only a failed exchange may omit it)")
        }
        self.init(status: status, headers: headers, payload: try Self.payload(fields), failure: failure)
    }

    private static func payload(_ fields: TapeFields) throws(GeminiTapeError) -> Payload? {
        let json = fields.json
        if let events = json["events"] {
            guard json["body"] == nil else { throw fields.failure("has both body and events") }
            guard case .array(let list) = events else { throw fields.failure("events must be an array") }
            var unterminated: String?
            if let value = json["unterminated"] {
                guard case .string(let text) = value else {
                    throw fields.failure("unterminated must be a string")
                }
                unterminated = text
            }
            return .events(list, trailer: json["trailer"], unterminated: unterminated)
        }
        guard json["trailer"] == nil, json["unterminated"] == nil else {
            throw fields.failure("trailer and unterminated belong with events")
        }
        return json["body"].map { .body($0) }
    }

    private static func failure(_ fields: TapeFields) throws(GeminiTapeError) -> GeminiTapeFailure? {
        guard let error = fields.json["error"] else { return nil }
        switch error {
        case .string("cancelled"):
            return .cancelled
        case .string("transport"):
            var kind = GeminiTransportFailure.other
            if fields.json["failure"] != nil {
                let name = try fields.string("failure")
                guard let known = GeminiTransportFailure(rawValue: name) else {
                    let names = GeminiTransportFailure.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fields.failure("failure \"\(name)\" is not one of \(names)")
                }
                kind = known
            }
            let detail = fields.json["detail"] == nil ? "" : try fields.string("detail")
            return .transport(kind, detail: detail)
        default:
            throw fields.failure("error must be \"transport\" or \"cancelled\"")
        }
    }
}

/// Reads the fields of one object of a tape line, with errors that name the line and field.
struct TapeFields {
    let json: JSONValue
    let prefix: String
    let line: Int

    init(_ json: JSONValue, at prefix: String, line: Int) {
        self.json = json
        self.prefix = prefix
        self.line = line
    }

    func failure(_ reason: String) -> GeminiTapeError {
        .invalidExchange(line: line, reason: prefix.isEmpty ? reason : "\(prefix): \(reason)")
    }

    func requireObject() throws(GeminiTapeError) {
        guard case .object = json else { throw failure("expected an object, got \(json.typeName)") }
    }

    func string(_ key: String) throws(GeminiTapeError) -> String {
        guard let value = json[key] else { throw failure("\(key) is missing") }
        guard case .string(let text) = value else {
            throw failure("\(key) must be a string, got \(value.typeName)")
        }
        return text
    }

    func optionalStatus() throws(GeminiTapeError) -> Int? {
        guard let value = json["status"] else { return nil }
        guard case .number(let number) = value, let status = Int(number.text), (100...999).contains(status)
        else {
            throw failure("status must be an HTTP status code (100...999), got \(value.compactText)")
        }
        return status
    }
}
