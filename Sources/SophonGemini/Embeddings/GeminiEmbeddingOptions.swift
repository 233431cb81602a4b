import SophonCore

/// The options of one embedding request: `taskType`, `title` (sent only with
/// ``GeminiEmbeddingTaskType/retrievalDocument``) and `outputDimensionality`; `nil` leaves a
/// field out of the body.
public struct GeminiEmbeddingOptions: Sendable, Hashable {
    /// What the vector is for; `nil` leaves `taskType` out.
    public var taskType: GeminiEmbeddingTaskType?
    /// The document's title (sent only with a retrieval-document task type).
    public var title: String?
    /// The number of dimensions asked for (a shorter vector from an MRL model).
    public var outputDimensionality: Int?

    /// Options; each `nil` field is left out of the body.
    public init(
        taskType: GeminiEmbeddingTaskType? = nil, title: String? = nil, outputDimensionality: Int? = nil
    ) {
        self.taskType = taskType
        self.title = title
        self.outputDimensionality = outputDimensionality
    }

    /// `,"taskType":..,"title":..,"outputDimensionality":..` for the fields that are set, in
    /// that order (the title only for a retrieval document).
    var bodyFields: String {
        var text = ""
        if let taskType { text += #","taskType":"# + JSONValue.string(taskType.rawValue).compactText }
        if let title, taskType == .retrievalDocument {
            text += #","title":"# + JSONValue.string(title).compactText
        }
        if let outputDimensionality { text += #","outputDimensionality":"# + String(outputDimensionality) }
        return text
    }
}
