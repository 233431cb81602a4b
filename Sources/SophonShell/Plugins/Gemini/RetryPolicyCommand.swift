import SophonGemini

/// `retry-policy [default | minimal | KEY=VALUE...]` (docs/commands.md): keys `attempts`,
/// `base`, `cap`, `jitter`, `retry-after`, `max-wait`, `fallback`, `downscale`; no argument
/// shows the policy in force.
enum RetryPolicyCommand {
    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let current = context.session.withGeminiState { $0.retryPolicy }
        switch request.arguments {
        case []:
            return .text(
                describe(current, fallbackModel: context.session.withGeminiState { $0.fallbackModel }))
        case ["default"]:
            context.session.withGeminiState { $0.retryPolicy = .default }
            return .none
        case ["minimal"]:
            context.session.withGeminiState { $0.retryPolicy = .minimal }
            return .none
        default:
            var policy = current
            var fallbackModel: String?
            for word in request.arguments {
                guard let equals = word.firstIndex(of: "=") else {
                    throw CommandFailure(
                        kind: .usage,
                        message: "retry-policy: expected default, minimal or KEY=VALUE, got '\(word)'"
                            + ShellMessages.didYouMean(
                                Suggestions.closest(
                                    to: word, in: ["default", "minimal"].filter { $0 != word }
                                ).first))
                }
                let key = String(word[..<equals])
                let value = String(word[word.index(after: equals)...])
                try apply(key, value, to: &policy, fallbackModel: &fallbackModel)
            }
            context.session.withGeminiState { state in
                state.retryPolicy = policy
                if let fallbackModel { state.fallbackModel = fallbackModel }
            }
            return .none
        }
    }

    /// Whether `value` reads as a model: a preset (by name or ID), an explicit `custom:ID`, or an
    /// ID shaped like Google's (`gemini-...`, `gemma-...`: letters, a dash, and a digit), so a
    /// word such as `none`, `no` or `disabled` is refused instead of becoming a model.
    static func isPlausibleModel(_ value: String, _ model: GeminiModel) -> Bool {
        if case .custom = model {
            if value.hasPrefix("custom:") { return true }
            let id = model.id
            return id.contains("-") && id.contains(where: \.isNumber) && id.first?.isLetter == true
        }
        return true
    }

    private static func apply(
        _ key: String, _ value: String, to policy: inout GeminiRetryPolicy, fallbackModel: inout String?
    ) throws {
        func invalid(_ expectation: String) -> CommandFailure {
            CommandFailure(
                kind: .usage, message: "retry-policy \(key): expected \(expectation), got '\(value)'")
        }
        func flag() throws -> Bool {
            guard let flag = OnOff.parse(value) else { throw invalid("on or off") }
            return flag
        }
        func duration() throws -> Duration {
            guard let parsed = DurationParser.parse(value) else {
                throw invalid("a duration up to a year, such as 500ms, 0.8s or 2m")
            }
            return parsed
        }
        switch key {
        case "attempts":
            guard let count = Int(value), (1...20).contains(count) else { throw invalid("a count in 1...20") }
            policy.attempts = count
        case "base": policy.baseDelay = try duration()
        case "cap": policy.maxDelay = try duration()
        case "max-wait": policy.maxServerWait = try duration()
        case "jitter": policy.jitter = try flag() ? 0.2 : 0
        case "retry-after": policy.honoursServerWait = try flag()
        case "downscale": policy.downscale = try flag()
        case "fallback":
            switch value {
            case "on": policy.fallbackOn404 = true
            case "off", "none": policy.fallbackOn404 = false
            default:
                let model = GeminiModel(selection: value)
                guard GeminiModel.isWellFormedID(model.id), Self.isPlausibleModel(value, model) else {
                    throw invalid(
                        "on, off (or none) or a model ID such as \(GeminiModel.shellFallbackModelID)")
                }
                policy.fallbackOn404 = true
                fallbackModel = model.id
            }
        default:
            var message = "retry-policy: unknown key '\(key)'"
            message += ShellMessages.didYouMean(Suggestions.closest(to: key, in: keys).first)
            throw CommandFailure(kind: .usage, message: message)
        }
    }

    /// The keys of `retry-policy KEY=VALUE`, in the usage's order.
    static let keys = [
        "attempts", "base", "cap", "jitter", "retry-after", "max-wait", "fallback", "downscale",
    ]

    /// What Tab offers for each word: `default`, `minimal`, then each key with its `=`.
    static let completion = ArgumentCompletion.words(["default", "minimal"] + keys.map { $0 + "=" })

    /// The policy as `retry-policy` prints it: one `key=value` per line.
    static func describe(_ policy: GeminiRetryPolicy, fallbackModel: String) -> String {
        [
            "attempts=\(policy.attempts)",
            "base=\(DurationParser.format(policy.baseDelay))",
            "cap=\(DurationParser.format(policy.maxDelay))",
            "jitter=\(policy.jitter > 0 ? "on" : "off")",
            "retry-after=\(policy.honoursServerWait ? "on" : "off")",
            "max-wait=\(DurationParser.format(policy.maxServerWait))",
            "fallback=\(policy.fallbackOn404 ? fallbackModel : "off")",
            "downscale=\(policy.downscale ? "on" : "off")",
        ].joined(separator: "\n")
    }
}
