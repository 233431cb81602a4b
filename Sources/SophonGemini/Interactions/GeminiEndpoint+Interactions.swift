/// The Interactions API's endpoints (gemini-wire-format-3.md §1.2), under `/v1beta/`.
extension GeminiEndpoint {
    /// `interactions`: create.
    static let interactions = GeminiEndpoint(path: "interactions")

    /// `interactions/ID`: get or delete; with `stream`, `?stream=true` and, when given,
    /// `&last_event_id=E` (resume after that event).
    static func interaction(_ id: String, stream: Bool = false, lastEventID: String? = nil) -> GeminiEndpoint
    {
        var query: [(String, String)] = []
        if stream {
            query.append(("stream", "true"))
            if let lastEventID { query.append(("last_event_id", lastEventID)) }
        }
        return GeminiEndpoint(path: "interactions/\(id)", query: query)
    }

    /// `interactions/ID/cancel`.
    static func cancelInteraction(_ id: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "interactions/\(id)/cancel")
    }
}
