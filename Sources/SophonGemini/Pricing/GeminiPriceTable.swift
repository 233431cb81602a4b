import SophonCore

/// What a model costs, in US dollars per 1M tokens (docs/cost.md), as Google's pricing page
/// lists it: input, output, cached input (context caching reads) and thinking (billed as
/// output on the page: "output price (including thinking tokens)"), with a second tier for
/// prompts longer than ``longPromptThreshold`` tokens where the page has one.
public struct GeminiPrice: Sendable, Hashable {
    /// Input (prompt) tokens, USD per 1M.
    public var input: Double
    /// Output (candidate) tokens, USD per 1M.
    public var output: Double
    /// Cached input tokens (`cachedContentTokenCount`), USD per 1M.
    public var cachedInput: Double
    /// Thinking tokens (`thoughtsTokenCount`), USD per 1M.
    public var thinking: Double
    /// Prompt size (tokens) above which ``long`` applies; `nil` when the model has one tier.
    public var longPromptThreshold: Int?
    /// The prices of prompts longer than ``longPromptThreshold``.
    public var long: Long?

    /// The second tier's prices, USD per 1M tokens.
    public struct Long: Sendable, Hashable {
        /// Input tokens.
        public var input: Double
        /// Output and thinking tokens.
        public var output: Double
        /// Cached input tokens.
        public var cachedInput: Double

        /// Creates a tier.
        public init(input: Double, output: Double, cachedInput: Double) {
            self.input = input
            self.output = output
            self.cachedInput = cachedInput
        }
    }

    /// Creates a price; `thinking` defaults to `output` (as the page bills it).
    public init(
        input: Double, output: Double, cachedInput: Double, thinking: Double? = nil,
        longPromptThreshold: Int? = nil, long: Long? = nil
    ) {
        self.input = input
        self.output = output
        self.cachedInput = cachedInput
        self.thinking = thinking ?? output
        self.longPromptThreshold = longPromptThreshold
        self.long = long
    }
}

/// How a request was served, for its discount: the page prices Batch mode and Flex at half the
/// standard (interactive) price.
public enum GeminiServiceTier: String, Sendable, Hashable {
    /// Interactive `generateContent`: the standard price.
    case standard
    /// Batch mode (`batchGenerateContent`): ``GeminiPriceTable/batchDiscount`` off.
    case batch
    /// Flex processing: ``GeminiPriceTable/flexDiscount`` off.
    case flex
}

/// The price of each catalog model (docs/cost.md), dated and sourced, with the prices of
/// `prices.json` merged over it. An ID with no price has no cost: callers show "unknown",
/// never 0.
public struct GeminiPriceTable: Sendable, Hashable {
    /// The page the built-in prices come from.
    public static let source = "https://ai.google.dev/gemini-api/docs/pricing"
    /// The day the built-in prices were read from ``source`` (Paid tier, text / image / video).
    public static let date = "2026-10-07"
    /// The share taken off Batch mode requests (the page: "Batch API (50% cost reduction)").
    public static let batchDiscount = 0.5
    /// The share taken off Flex requests (half price, as Batch).
    public static let flexDiscount = 0.5

    /// Prices by model ID.
    public var prices: [String: GeminiPrice]

    /// Creates a table.
    public init(prices: [String: GeminiPrice]) {
        self.prices = prices
    }

    /// The built-in table, read from ``source`` on ``date``. `gemini-3.6-flash` is not on that
    /// page: it has no price here (its cost is unknown until `prices.json` gives one). Where the
    /// page gives no context-caching price for a model, a tenth of its input price is used, as
    /// for every model the page does price.
    public static let builtIn = GeminiPriceTable(prices: [
        "gemini-2.5-flash-lite": GeminiPrice(input: 0.10, output: 0.40, cachedInput: 0.01),
        "gemini-2.5-flash": GeminiPrice(input: 0.30, output: 2.50, cachedInput: 0.03),
        "gemini-2.5-pro": GeminiPrice(
            input: 1.25, output: 10.00, cachedInput: 0.125, longPromptThreshold: 200_000,
            long: .init(input: 2.50, output: 15.00, cachedInput: 0.25)),
        "gemini-3-flash-preview": GeminiPrice(input: 0.50, output: 3.00, cachedInput: 0.05),
        "gemini-3.1-flash-lite": GeminiPrice(input: 0.25, output: 1.50, cachedInput: 0.025),
        "gemini-3.1-pro-preview": GeminiPrice(
            input: 2.00, output: 12.00, cachedInput: 0.20, longPromptThreshold: 200_000,
            long: .init(input: 4.00, output: 18.00, cachedInput: 0.40)),
        "gemini-3.5-flash-lite": GeminiPrice(input: 0.30, output: 2.50, cachedInput: 0.03),
        "gemini-3.5-flash": GeminiPrice(input: 1.50, output: 9.00, cachedInput: 0.15),
        "gemini-3.8-flash": GeminiPrice(input: 0.75, output: 3.75, cachedInput: 0.075),
        // Embeddings bill input only: $0.15 per 1M input tokens, from Google's announcement
        // (developers.googleblog.com/en/gemini-embedding-available-gemini-api/), not the page.
        // Its replies count no tokens, so the shell shows an embedding's cost as unknown.
        "gemini-embedding-001": GeminiPrice(input: 0.15, output: 0, cachedInput: 0.015),
    ])

    /// The price of `model` (a leading `models/` ignored); `nil` when the table has none.
    public func price(of model: String) -> GeminiPrice? {
        prices[model.hasPrefix("models/") ? String(model.dropFirst("models/".count)) : model]
    }

    /// What one exchange cost, in US dollars: uncached prompt and tool-use prompt tokens at the
    /// input price, cached tokens at the cached-input price, candidates at the output price,
    /// thoughts at the thinking price; the long tier when the prompt is over the threshold;
    /// less the tier's discount. `nil` when the model has no price.
    public func cost(model: String, usage: UsageMetadata?, tier: GeminiServiceTier = .standard) -> Double? {
        guard let price = price(of: model) else { return nil }
        let prompt = usage?.promptTokenCount ?? 0
        let cached = min(usage?.cachedContentTokenCount ?? 0, prompt)
        let toolUse = usage?.toolUsePromptTokenCount ?? 0
        var rates = (
            input: price.input, output: price.output, cached: price.cachedInput, thinking: price.thinking
        )
        if let threshold = price.longPromptThreshold, let long = price.long, prompt + toolUse > threshold {
            rates = (long.input, long.output, long.cachedInput, long.output)
        }
        let total =
            Double(prompt - cached + toolUse) * rates.input + Double(cached) * rates.cached
            + Double(usage?.candidatesTokenCount ?? 0) * rates.output
            + Double(usage?.thoughtsTokenCount ?? 0) * rates.thinking
        let discount =
            switch tier {
            case .standard: 0.0
            case .batch: Self.batchDiscount
            case .flex: Self.flexDiscount
            }
        return Self.rounded(total / 1_000_000 * (1 - discount))
    }

    /// `usd` rounded to 10 decimals (away from binary noise such as 0.30000000000000004).
    public static func rounded(_ usd: Double) -> Double {
        (usd * 1e10).rounded() / 1e10
    }

    /// This table with `overrides` merged over it: each model's given prices replace the
    /// table's (a model not in the table needs `input` and `output`; a missing `cachedInput`
    /// is a tenth of `input`, a missing `thinking` is `output`). An override replaces the
    /// model's tiers by one.
    /// - Throws: ``GeminiPriceFileError`` naming the first model (by name) not in the table
    ///   that lacks `input` or `output`, and the member it lacks.
    public func merging(_ overrides: [String: GeminiPriceOverride]) throws(GeminiPriceFileError)
        -> GeminiPriceTable
    {
        var merged = self
        for (model, given) in overrides.sorted(by: { $0.key < $1.key }) {
            let base = prices[model]
            guard let input = given.input ?? base?.input, let output = given.output ?? base?.output else {
                let missing = (given.input ?? base?.input) == nil ? "input" : "output"
                throw GeminiPriceFileError(
                    message:
                        "\(model).\(missing): missing (a model not in the built-in table needs input and output)"
                )
            }
            merged.prices[model] = GeminiPrice(
                input: input, output: output,
                cachedInput: given.cachedInput ?? base?.cachedInput ?? input / 10,
                thinking: given.thinking ?? (given.output != nil ? output : base?.thinking ?? output))
        }
        return merged
    }

    /// Reads `prices.json`: `{"MODEL": {"input": USD, "output": USD, "cachedInput": USD,
    /// "thinking": USD}}`, USD per 1M tokens, each member optional.
    /// - Throws: ``GeminiPriceFileError`` naming the line and column of a syntax error, or the
    ///   model and member whose value is not a finite number of at least 0.
    public static func overrides(parsing text: String) throws(GeminiPriceFileError) -> [String:
        GeminiPriceOverride]
    {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw GeminiPriceFileError(line: error.line, column: error.column, message: error.message)
        }
        guard case .object(let models) = value else {
            throw GeminiPriceFileError(line: 1, column: 1, message: "expected an object of model -> prices")
        }
        var result: [String: GeminiPriceOverride] = [:]
        for member in models {
            guard case .object(let fields) = member.value else {
                throw GeminiPriceFileError(message: "\(member.key): expected an object of prices")
            }
            var override = GeminiPriceOverride()
            for field in fields {
                // 1e400 reads as infinity: not a price.
                guard let number = field.value.doubleValue, number.isFinite, number >= 0,
                    field.value.stringValue == nil
                else {
                    throw GeminiPriceFileError(
                        message:
                            "\(member.key).\(field.key): expected a finite number >= 0, got \(field.value.compactText)"
                    )
                }
                switch field.key {
                case "input": override.input = number
                case "output": override.output = number
                case "cachedInput": override.cachedInput = number
                case "thinking": override.thinking = number
                default:
                    throw GeminiPriceFileError(
                        message:
                            "\(member.key).\(field.key): unknown price (input, output, cachedInput, thinking)"
                    )
                }
            }
            result[member.key] = override
        }
        return result
    }
}

/// One model's prices in `prices.json`, USD per 1M tokens; `nil` members keep the table's.
public struct GeminiPriceOverride: Sendable, Hashable {
    /// Input tokens.
    public var input: Double?
    /// Output tokens.
    public var output: Double?
    /// Cached input tokens.
    public var cachedInput: Double?
    /// Thinking tokens.
    public var thinking: Double?

    /// Creates an override.
    public init(
        input: Double? = nil, output: Double? = nil, cachedInput: Double? = nil, thinking: Double? = nil
    ) {
        self.input = input
        self.output = output
        self.cachedInput = cachedInput
        self.thinking = thinking
    }
}

/// Why `prices.json` could not be used: where (1-based line and column, when the text does not
/// parse) and what.
public struct GeminiPriceFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of a syntax error; `nil` for a value of the wrong shape.
    public var line: Int?
    /// 1-based column of a syntax error.
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(line: Int? = nil, column: Int? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: MESSAGE`, or the message alone.
    public var description: String {
        guard let line, let column else { return message }
        return "line \(line), column \(column): \(message)"
    }
}
