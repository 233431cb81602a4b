import Foundation

/// The Operation resource of a Batch job decoded straight into typed values (no JSON tree),
/// so a job with 50,000 inline answers costs the answers, not a tree of every member. The
/// answers are read from `metadata.output`, and from `response` only when `metadata.output`
/// has none (the server often sends both).
struct GeminiBatchOperation: Decodable {
    struct Output: Decodable {
        struct Inlined: Decodable {
            var inlinedResponses: [Item]?
        }

        var responsesFile: String?
        var inlinedResponses: Inlined?

        var isEmpty: Bool { responsesFile == nil && inlinedResponses?.inlinedResponses == nil }
    }

    struct Item: Decodable {
        struct Metadata: Decodable {
            var key: FlexibleText?
        }

        var metadata: Metadata?
        var key: FlexibleText?
        var response: GenerateContentResponse?
        var error: GoogleRPCStatus?
    }

    /// A string, or a number read as its text (counts and keys come both ways).
    struct FlexibleText: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self.text = text
            } else if let number = try? container.decode(Int.self) {
                text = String(number)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }

    /// What a job is (its output, `metadata.output`, is read by the operation, not here).
    struct Metadata: Decodable {
        var name: String?
        var displayName: String?
        var model: String?
        var state: String?
        var createTime: String?
        var batchStats: [String: FlexibleText]?
    }

    var name: String?
    var metadata: Metadata?
    var error: GoogleRPCStatus?
    var output: Output?

    private enum CodingKeys: String, CodingKey {
        case name, metadata, error, response
    }

    private enum MetadataKeys: String, CodingKey {
        case output
    }

    init(from decoder: any Decoder) throws {
        try self.init(from: decoder, readsOutput: true)
    }

    /// Decodes the Operation; without `readsOutput` its answers (`metadata.output`, `response`)
    /// are skipped, not decoded: a listed job is its name, state, counts and times.
    private init(from decoder: any Decoder, readsOutput: Bool) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        metadata = try container.decodeIfPresent(Metadata.self, forKey: .metadata)
        error = try? container.decodeIfPresent(GoogleRPCStatus.self, forKey: .error)
        guard readsOutput else { return }
        if metadata != nil {
            output = try container.nestedContainer(keyedBy: MetadataKeys.self, forKey: .metadata)
                .decodeIfPresent(Output.self, forKey: .output)
        }
        if output?.isEmpty ?? true {
            output = (try? container.decodeIfPresent(Output.self, forKey: .response)) ?? output
        }
    }

    /// A job as `GET batches` lists it: the Operation without its answers (``output`` is `nil`).
    struct Listed: Decodable {
        var operation: GeminiBatchOperation

        init(from decoder: any Decoder) throws {
            operation = try GeminiBatchOperation(from: decoder, readsOutput: false)
        }
    }

    /// One page of `GET batches`: the jobs without their answers and the next page's token.
    struct ListPage: Decodable {
        var operations: [Listed]?
        var nextPageToken: String?
    }
}

extension GeminiBatch {
    /// Reads a decoded Operation (see ``GeminiBatchOperation``).
    init(_ operation: GeminiBatchOperation) {
        let metadata = operation.metadata
        name = operation.name ?? metadata?.name ?? ""
        displayName = metadata?.displayName ?? ""
        model = metadata?.model ?? ""
        state = GeminiBatchState(wire: metadata?.state ?? "")
        let stats = metadata?.batchStats ?? [:]
        func count(_ field: String) -> Int { stats[field].flatMap { Int($0.text) } ?? 0 }
        requestCount = count("requestCount")
        successfulCount = count("successfulRequestCount")
        failedCount = count("failedRequestCount")
        pendingCount = count("pendingRequestCount")
        createTime = metadata?.createTime
        responsesFile = operation.output?.responsesFile
        inlinedResponses = operation.output?.inlinedResponses?.inlinedResponses?.map { item in
            GeminiBatchItem(
                key: item.metadata?.key?.text ?? item.key?.text, response: item.response, error: item.error)
        }
        error = operation.error
    }
}
