import Foundation
import SophonCore

/// One turn of a conversation: a role and its parts (`Content` in the API).
///
/// Replies may carry `"content": {}` or `{"role":"model"}` with no parts: both decode, with
/// `parts == nil`. Never send a content whose `parts` is empty (the API rejects it with a 400).
public struct Content: Codable, Sendable, Hashable {
    /// `user` or `model` (ignored in `systemInstruction`); `nil` when absent.
    public var role: String?
    /// The parts, in order; `nil` when the server sent none.
    public var parts: [Part]?

    /// Creates a content.
    public init(role: String? = "user", parts: [Part]) {
        self.role = role
        self.parts = parts
    }

    /// A user turn holding one text part.
    public static func user(_ text: String) -> Content { Content(role: "user", parts: [.text(text)]) }

    /// A model turn holding one text part.
    public static func model(_ text: String) -> Content { Content(role: "model", parts: [.text(text)]) }

    /// The answer text: the text of every part that is not a thought, joined without separator.
    public var answerText: String {
        (parts ?? []).filter { $0.thought != true }.compactMap(\.text).joined()
    }

    /// The text of the thought parts (reasoning summaries), joined without separator.
    public var thoughtText: String {
        (parts ?? []).filter { $0.thought == true }.compactMap(\.text).joined()
    }
}

/// One part of a content: exactly one data field (text, inline data, file data, function call
/// or response, executable code, code execution result), plus the optional `thought` flag,
/// `thoughtSignature` and `videoMetadata` beside it.
public struct Part: Codable, Sendable, Hashable {
    /// Plain text.
    public var text: String?
    /// Inline bytes with a MIME type (base64 on the wire).
    public var inlineData: Blob?
    /// A reference to an uploaded file.
    public var fileData: FileData?
    /// A function call the model asks for.
    public var functionCall: FunctionCall?
    /// The result of a function call, sent back to the model.
    public var functionResponse: FunctionResponse?
    /// Code the model generated for the code-execution tool.
    public var executableCode: ExecutableCode?
    /// The result of running `executableCode`.
    public var codeExecutionResult: CodeExecutionResult?
    /// `true` for a thought (reasoning summary), not answer text.
    public var thought: Bool?
    /// Opaque base64 signature of the model's reasoning; send it back unchanged in history.
    public var thoughtSignature: String?
    /// Video clipping metadata, passed through as JSON.
    @JSONField public var videoMetadata: JSONValue?
    /// Members of a part kind this client does not know (`toolCall`, `toolResponse`,
    /// `partMetadata`, later additions), kept whole in wire order and sent back unchanged
    /// (docs/library.md, "Tools"); empty for known kinds.
    public var unknownMembers: [JSONMember] = []

    /// The names of ``unknownMembers``, for reporting them.
    public var unknownKinds: [String] { unknownMembers.map(\.key) }

    /// Creates a part; give exactly one data field.
    public init(
        text: String? = nil, inlineData: Blob? = nil, fileData: FileData? = nil,
        functionCall: FunctionCall? = nil, functionResponse: FunctionResponse? = nil,
        executableCode: ExecutableCode? = nil, codeExecutionResult: CodeExecutionResult? = nil,
        thought: Bool? = nil, thoughtSignature: String? = nil, videoMetadata: JSONValue? = nil
    ) {
        self.text = text
        self.inlineData = inlineData
        self.fileData = fileData
        self.functionCall = functionCall
        self.functionResponse = functionResponse
        self.executableCode = executableCode
        self.codeExecutionResult = codeExecutionResult
        self.thought = thought
        self.thoughtSignature = thoughtSignature
        self.videoMetadata = videoMetadata
    }

    /// A text part.
    public static func text(_ text: String) -> Part { Part(text: text) }

    /// An inline-data part holding `data` (sent base64-encoded) of type `mimeType`.
    public static func inlineData(mimeType: String, data: Data) -> Part {
        Part(inlineData: Blob(mimeType: mimeType, data: data))
    }

    /// Whether the part carries nothing but a thought signature (an empty or absent text).
    public var isSignatureOnly: Bool {
        thoughtSignature != nil && (text ?? "").isEmpty && inlineData == nil && fileData == nil
            && functionCall == nil && functionResponse == nil && executableCode == nil
            && codeExecutionResult == nil && unknownMembers.isEmpty
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case text, inlineData, fileData, functionCall, functionResponse, executableCode, codeExecutionResult
        case thought, thoughtSignature, videoMetadata
    }

    /// Any member name, for the members this client does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the known fields, and keeps every other member whole in ``unknownMembers``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        inlineData = try container.decodeIfPresent(Blob.self, forKey: .inlineData)
        fileData = try container.decodeIfPresent(FileData.self, forKey: .fileData)
        functionCall = try container.decodeIfPresent(FunctionCall.self, forKey: .functionCall)
        functionResponse = try container.decodeIfPresent(FunctionResponse.self, forKey: .functionResponse)
        executableCode = try container.decodeIfPresent(ExecutableCode.self, forKey: .executableCode)
        codeExecutionResult = try container.decodeIfPresent(
            CodeExecutionResult.self, forKey: .codeExecutionResult)
        thought = try container.decodeIfPresent(Bool.self, forKey: .thought)
        thoughtSignature = try container.decodeIfPresent(String.self, forKey: .thoughtSignature)
        _videoMetadata = try container.decode(JSONField.self, forKey: .videoMetadata)
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        let all = try decoder.container(keyedBy: AnyKey.self)
        unknownMembers = try all.allKeys.filter { !known.contains($0.stringValue) }.map {
            JSONMember($0.stringValue, try all.decode(JSONValue.self, forKey: $0))
        }
    }

    /// Encodes the known fields in declaration order, then ``unknownMembers`` as received.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(inlineData, forKey: .inlineData)
        try container.encodeIfPresent(fileData, forKey: .fileData)
        try container.encodeIfPresent(functionCall, forKey: .functionCall)
        try container.encodeIfPresent(functionResponse, forKey: .functionResponse)
        try container.encodeIfPresent(executableCode, forKey: .executableCode)
        try container.encodeIfPresent(codeExecutionResult, forKey: .codeExecutionResult)
        try container.encodeIfPresent(thought, forKey: .thought)
        try container.encodeIfPresent(thoughtSignature, forKey: .thoughtSignature)
        try container.encode(_videoMetadata, forKey: .videoMetadata)
        var all = encoder.container(keyedBy: AnyKey.self)
        for member in unknownMembers { try all.encode(member.value, forKey: AnyKey(stringValue: member.key)) }
    }
}

/// Inline bytes (`Blob`): `{"mimeType": ..., "data": base64}`.
public struct Blob: Codable, Sendable, Hashable {
    /// The IANA MIME type, e.g. `image/png`.
    public var mimeType: String
    /// The raw bytes; base64 on the wire.
    public var data: Data

    /// Creates a blob.
    public init(mimeType: String, data: Data) {
        self.mimeType = mimeType
        self.data = data
    }
}

/// A file reference (`FileData`): `{"mimeType"?, "fileUri"}`.
public struct FileData: Codable, Sendable, Hashable {
    /// The MIME type, when known.
    public var mimeType: String?
    /// The file URI from the Files API.
    public var fileUri: String

    /// Creates a file reference.
    public init(mimeType: String? = nil, fileUri: String) {
        self.mimeType = mimeType
        self.fileUri = fileUri
    }
}

/// A function call predicted by the model: `{"id"?, "name", "args"}`.
public struct FunctionCall: Codable, Sendable, Hashable {
    /// The call ID, when the model gave one.
    public var id: String?
    /// The function name.
    public var name: String
    /// The arguments as a JSON object.
    @JSONField public var args: JSONValue?

    /// Creates a function call.
    public init(id: String? = nil, name: String, args: JSONValue? = nil) {
        self.id = id
        self.name = name
        self.args = args
    }
}

/// The result of a function call: `{"id"?, "name", "response"}`.
public struct FunctionResponse: Codable, Sendable, Hashable {
    /// The call ID this answers.
    public var id: String?
    /// The function name.
    public var name: String
    /// The result as a JSON object.
    @JSONField public var response: JSONValue?

    /// Creates a function response.
    public init(id: String? = nil, name: String, response: JSONValue?) {
        self.id = id
        self.name = name
        self.response = response
    }
}

/// Code generated for the code-execution tool: `{"language", "code"}`.
public struct ExecutableCode: Codable, Sendable, Hashable {
    /// The language, e.g. `PYTHON`.
    public var language: String?
    /// The source code.
    public var code: String?

    /// Creates executable code.
    public init(language: String?, code: String?) {
        self.language = language
        self.code = code
    }
}

/// The outcome of running `executableCode`: `{"outcome", "output"}`.
public struct CodeExecutionResult: Codable, Sendable, Hashable {
    /// The outcome, e.g. `OUTCOME_OK`.
    public var outcome: String?
    /// Standard output or the error text.
    public var output: String?

    /// Creates a result.
    public init(outcome: String?, output: String?) {
        self.outcome = outcome
        self.output = output
    }
}

extension Content: ExpressibleByStringLiteral {
    /// A content of one text part and no role: the shape of a `systemInstruction`, so every
    /// call's `systemInstruction:` (a ``Content``) takes a string literal:
    /// `systemInstruction: "Answer in one sentence."`.
    public init(stringLiteral text: String) {
        self.init(role: nil, parts: [.text(text)])
    }

    /// A system instruction of one text part (no role), for text that is not a literal.
    public static func system(_ text: String) -> Content { Content(role: nil, parts: [.text(text)]) }
}
