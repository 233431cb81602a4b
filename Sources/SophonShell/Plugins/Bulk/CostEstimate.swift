import SophonCore
import SophonGemini

/// `run --estimate` and `batch submit --estimate` (docs/cost.md): every line's request counted
/// with countTokens (nothing generated), then the expected cost of the input at the model's
/// price (Batch mode at its discount), and a ceiling when `max-tokens` bounds the output.
enum CostEstimate {
    /// Counts the requests `build` makes of `requests`' lines and reports the expected cost.
    /// - Throws: ``CommandFailure`` for a countTokens call that fails, or a line that does not build.
    static func run(
        command: String, requests: BulkInput, build: (BulkInputLine) throws -> BulkRequest,
        tier: GeminiServiceTier, client: GeminiAPIClient, context: CommandContext, services: GeminiServices
    ) async throws -> CommandResult {
        var built: [BulkRequest] = []
        try requests.forEachLine { built.append(try build($0)) }
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let settings = context.session.settings
        let model = built.first?.model?.id ?? settings.model
        var tokens = 0
        do {
            for request in built {
                let body = request.schema.map { request.request.answering(schema: $0) } ?? request.request
                let counted = try await client.countTokens(
                    label: "estimate", request: body, model: request.model ?? GeminiModel(selection: model),
                    retryPolicy: policy)
                tokens += counted.totalTokens ?? 0
            }
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
        let table = services.prices.table
        let inputCost = table.cost(model: model, usage: UsageMetadata(promptTokenCount: tokens), tier: tier)
        var ceiling: (Double, Int)?
        if let maxTokens = settings.maxTokens, inputCost != nil {
            let most = UsageMetadata(promptTokenCount: tokens, candidatesTokenCount: maxTokens * built.count)
            ceiling = table.cost(model: model, usage: most, tier: tier).map { ($0, maxTokens) }
        }
        var data: [JSONMember] = [
            JSONMember("requests", .integer(built.count)),
            JSONMember("inputTokens", .integer(tokens)),
            JSONMember("model", .string(model)),
            JSONMember("cost", PriceBook.value(inputCost)),
        ]
        if let (most, _) = ceiling { data.append(JSONMember("maxCost", PriceBook.value(most))) }
        return .report(
            BulkMessages.estimate(
                command: command, requests: built.count, tokens: tokens, model: model, inputCost: inputCost,
                ceiling: ceiling),
            data: .object(data))
    }
}
