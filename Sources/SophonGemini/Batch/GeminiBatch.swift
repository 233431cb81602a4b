import Foundation
import SophonCore

/// A Batch job as the API's Operation resource describes it (docs/running-many-prompts.md):
/// read leniently (counts are strings and missing counts are 0; the output is read from
/// `metadata.output`, then `response`).
public struct GeminiBatch: Sendable {
    /// `batches/ID`.
    public var name: String
    /// The display name given at create.
    public var displayName: String
    /// `models/ID`, as the server wrote it.
    public var model: String
    /// The state.
    public var state: GeminiBatchState
    /// Requests in the job.
    public var requestCount: Int
    /// Requests answered successfully.
    public var successfulCount: Int
    /// Requests that failed.
    public var failedCount: Int
    /// Requests not answered yet.
    public var pendingCount: Int
    /// When the job was created (RFC 3339), as the server wrote it.
    public var createTime: String?
    /// The answers of a job with inline input, once finished.
    public var inlinedResponses: [GeminiBatchItem]?
    /// The results file (`files/batch-ID`) of a job with file input, once finished.
    public var responsesFile: String?
    /// The job's error (FAILED, maybe CANCELLED).
    public var error: GoogleRPCStatus?

    /// Reads an Operation.
    public init(operation: JSONValue) {
        let metadata = operation["metadata"] ?? .null
        name = operation["name"]?.stringValue ?? metadata["name"]?.stringValue ?? ""
        displayName = metadata["displayName"]?.stringValue ?? ""
        model = metadata["model"]?.stringValue ?? ""
        state = GeminiBatchState(wire: metadata["state"]?.stringValue ?? "")
        let stats = metadata["batchStats"] ?? .null
        func count(_ field: String) -> Int {
            switch stats[field] {
            case .string(let text)?: return Int(text) ?? 0
            case .number(let number)?: return Int(number.text) ?? 0
            default: return 0
            }
        }
        requestCount = count("requestCount")
        successfulCount = count("successfulRequestCount")
        failedCount = count("failedRequestCount")
        pendingCount = count("pendingRequestCount")
        createTime = metadata["createTime"]?.stringValue
        let output = metadata["output"] ?? operation["response"] ?? .null
        responsesFile = output["responsesFile"]?.stringValue
        if case .array(let items)? = output["inlinedResponses"]?["inlinedResponses"] {
            inlinedResponses = items.map(Self.item)
        }
        error = operation["error"].flatMap { Self.decode(GoogleRPCStatus.self, $0) }
    }

    /// One inline item (`{metadata?, response | error}`) or results-file line
    /// (`{key, response | error}`).
    public static func item(_ value: JSONValue) -> GeminiBatchItem {
        let key: String? =
            switch value["metadata"]?["key"] ?? value["key"] {
            case .string(let text)?: text
            case .number(let number)?: number.text
            default: nil
            }
        return GeminiBatchItem(
            key: key, response: value["response"].flatMap { decode(GenerateContentResponse.self, $0) },
            error: value["error"].flatMap { decode(GoogleRPCStatus.self, $0) })
    }

    /// The items of a results file (`responsesFile`, JSON Lines of `{key, response | error}`,
    /// `key` possibly after `response`); lines that are not JSON objects are skipped.
    public static func items(fromResultsFile data: Data) -> [GeminiBatchItem] {
        data.split(separator: 0x0A).compactMap { line in
            guard let value = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)),
                case .object = value
            else { return nil }
            return item(value)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> T? {
        try? JSONDecoder().decode(type, from: Data(value.compactText.utf8))
    }
}

/// The state of a Batch job (docs/running-many-prompts.md). The wire uses `BATCH_STATE_*`;
/// Google's REST sample compares against `JOB_STATE_*`: both prefixes are read.
public enum GeminiBatchState: String, Sendable, Hashable, CaseIterable {
    /// Waiting to run.
    case pending = "PENDING"
    /// Running.
    case running = "RUNNING"
    /// Done; results are ready (items may still have failed).
    case succeeded = "SUCCEEDED"
    /// The job failed (``GeminiBatch/error`` says why); no results.
    case failed = "FAILED"
    /// Cancelled by the user.
    case cancelled = "CANCELLED"
    /// Pending or running for more than 48 h; no results: resubmit.
    case expired = "EXPIRED"
    /// A state this client does not know.
    case unspecified = "UNSPECIFIED"

    /// Reads `BATCH_STATE_X`, `JOB_STATE_X` or `X`; anything else is ``unspecified``.
    public init(wire: String) {
        var text = wire
        for prefix in ["BATCH_STATE_", "JOB_STATE_"] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        self = GeminiBatchState(rawValue: text) ?? .unspecified
    }

    /// Whether the job will not change any more (SUCCEEDED, FAILED, CANCELLED, EXPIRED).
    public var isTerminal: Bool { [.succeeded, .failed, .cancelled, .expired].contains(self) }
}

/// One answered request of a Batch job: its key (`metadata.key` inline, `key` in a results
/// file; `nil` when the server sent none) and its response or per-item error.
public struct GeminiBatchItem: Sendable {
    /// The request's key.
    public var key: String?
    /// The response; a blocked prompt has `promptFeedback.blockReason` and no candidates.
    public var response: GenerateContentResponse?
    /// The per-item error.
    public var error: GoogleRPCStatus?

    /// Creates an item.
    public init(key: String?, response: GenerateContentResponse?, error: GoogleRPCStatus?) {
        self.key = key
        self.response = response
        self.error = error
    }
}

extension GeminiBatchItem {
    /// The item as a result, read by ``GeminiAnswerReader`` (`structured`: the request asked for
    /// JSON): the answer's value, or the typed error a live call would have thrown (a per-item
    /// error by its status, a blocked prompt `promptBlocked`, a blocked answer `contentBlocked`,
    /// no content `emptyResponse`).
    public func outcome(structured: Bool) -> Result<
        (value: JSONValue, response: GenerateContentResponse), GeminiError
    > {
        GeminiAnswerReader(wantsJSON: structured).read(self).map { ($0.value, $0.response) }
    }
}

/// One request of a Batch job with inline input: the key its answer comes back under, and the
/// `generateContent` request (docs/running-many-prompts.md).
public struct GeminiBatchRequest: Sendable, Hashable {
    /// The key (`metadata.key`): answers come back in any order, matched by it.
    public var key: String
    /// The request, as `generateContent` takes it.
    public var request: GenerateContentRequest

    /// A request under `key`.
    public init(key: String, request: GenerateContentRequest) {
        self.key = key
        self.request = request
    }

    /// A one-turn text request under `key`.
    /// - Parameters:
    ///   - key: the key its answer comes back under.
    ///   - prompt: the user's text.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional settings.
    public init(
        key: String, prompt: String, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil
    ) {
        self.init(
            key: key,
            request: GenerateContentRequest(
                contents: [.user(prompt)], systemInstruction: systemInstruction,
                generationConfig: generationConfig))
    }
}
