import SophonCore
import SophonGemini

/// `run --estimate` and `batch submit --estimate` (docs/cost.md): every line's request counted
/// with countTokens (nothing generated), then the expected cost of the input at the model's
/// price (Batch mode at its discount), and a ceiling when `max-tokens` bounds the output.
enum CostEstimate {
    /// Counts the requests `build` makes of `requests`' lines and reports the expected cost.
    /// - Throws: ``CommandFailure`` for a countTokens call that fails, or a line that does not build.
    static func run(
        command: String, requests: BulkInput, build: (BulkInputLine) throws -> [BulkRequest],
        tier: GeminiServiceTier, client: GeminiAPIClient, context: CommandContext, services: GeminiServices
    ) async throws -> CommandResult {
        var built: [BulkRequest] = []
        try requests.forEachLine { built += try build($0) }
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let settings = context.session.geminiSettings
        let table = services.prices.table
        var tokens = 0
        // Each request priced on its own model (`run --models`); a ceiling per request at max-tokens.
        var inputCosts: [Double?] = []
        var ceilings: [Double?] = []
        var unpriced: String?
        do {
            for request in built {
                let model = request.model ?? GeminiModel(selection: settings.model)
                let body = request.schema.map { request.request.answering(schema: $0) } ?? request.request
                let counted = try await client.countTokens(
                    label: "estimate", request: body, model: model, retryPolicy: policy)
                let count = counted.totalTokens ?? 0
                tokens += count
                let input = table.cost(
                    model: model.id, usage: UsageMetadata(promptTokenCount: count), tier: tier)
                if input == nil, unpriced == nil { unpriced = model.id }
                inputCosts.append(input)
                if let maxTokens = settings.maxTokens {
                    ceilings.append(
                        table.cost(
                            model: model.id,
                            usage: UsageMetadata(promptTokenCount: count, candidatesTokenCount: maxTokens),
                            tier: tier))
                }
            }
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
        let model = unpriced ?? built.first?.model?.id ?? settings.model
        let inputCost = CostText.total(inputCosts)
        var ceiling: (Double, Int)?
        if let maxTokens = settings.maxTokens, let most = CostText.total(ceilings) {
            ceiling = (most, maxTokens)
        }
        var data: [JSONMember] = [
            JSONMember("requests", .integer(built.count)),
            JSONMember("inputTokens", .integer(tokens)),
            JSONMember("model", .string(model)),
            JSONMember("cost", CostText.value(inputCost)),
        ]
        if let (most, _) = ceiling { data.append(JSONMember("maxCost", CostText.value(most))) }
        return .report(
            BulkMessages.estimate(
                command: command, requests: built.count, tokens: tokens, model: model, inputCost: inputCost,
                ceiling: ceiling),
            data: .object(data))
    }
}
