import SophonCore

/// A Gemini model: one of the catalog presets or any other model ID.
///
/// Presets, their IDs, tiers and successors follow docs/library.md (successors are Google's
/// documented replacements). `hasFreeTier` marks models usable on the free tier; `isPaidOnly`
/// marks models with no free tier at all; a preset may be neither (its free-tier access is
/// limited or undocumented). Encoded (`Codable`) as its ID string.
public enum GeminiModel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `gemini-2.5-flash-lite` (free tier). Successor: ``gemini31FlashLite``.
    case gemini25FlashLite
    /// `gemini-2.5-flash` (free tier). Successor: ``gemini35Flash``.
    case gemini25Flash
    /// `gemini-2.5-pro`. Successor: ``gemini31Pro``.
    case gemini25Pro
    /// `gemini-3-flash-preview` (deprecated). Successor: ``gemini36Flash``.
    case gemini3Flash
    /// `gemini-3.1-flash-lite` (free tier): the library's default and fallback. Successor:
    /// ``gemini35FlashLite``.
    case gemini31FlashLite
    /// `gemini-3.1-pro-preview` (paid only).
    case gemini31Pro
    /// `gemini-3.5-flash-lite` (free tier): the shell's fallback.
    case gemini35FlashLite
    /// `gemini-3.5-flash`.
    case gemini35Flash
    /// `gemini-3.6-flash` (free tier).
    case gemini36Flash
    /// `gemini-3.8-flash` (free tier): the shell's default.
    case gemini38Flash
    /// Any other model ID, used as given.
    case custom(String)

    /// Every preset, oldest first (the order `models` lists them in).
    public static let allPresets: [GeminiModel] = [
        .gemini25FlashLite, .gemini25Flash, .gemini25Pro, .gemini3Flash, .gemini31FlashLite,
        .gemini31Pro, .gemini35FlashLite, .gemini35Flash, .gemini36Flash, .gemini38Flash,
    ]

    /// The presets with a free tier, in catalog order (where default and fallback models
    /// should come from).
    public static var freeTierPresets: [GeminiModel] { allPresets.filter(\.hasFreeTier) }

    /// The library's default model: ``gemini31FlashLite`` (free tier).
    public static let defaultModel: GeminiModel = .gemini31FlashLite
    /// The library's fallback model (used after a 404): ``gemini31FlashLite`` (free tier).
    public static let defaultFallback: GeminiModel = .gemini31FlashLite
    /// The shell's default model ID: `gemini-3.8-flash`.
    public static let shellDefaultModelID = "gemini-3.8-flash"
    /// The shell's fallback model ID: `gemini-3.5-flash-lite`.
    public static let shellFallbackModelID = "gemini-3.5-flash-lite"

    /// The model ID sent in request paths (`gemini-2.5-flash`).
    public var id: String {
        switch self {
        case .gemini25FlashLite: "gemini-2.5-flash-lite"
        case .gemini25Flash: "gemini-2.5-flash"
        case .gemini25Pro: "gemini-2.5-pro"
        case .gemini3Flash: "gemini-3-flash-preview"
        case .gemini31FlashLite: "gemini-3.1-flash-lite"
        case .gemini31Pro: "gemini-3.1-pro-preview"
        case .gemini35FlashLite: "gemini-3.5-flash-lite"
        case .gemini35Flash: "gemini-3.5-flash"
        case .gemini36Flash: "gemini-3.6-flash"
        case .gemini38Flash: "gemini-3.8-flash"
        case .custom(let id): id
        }
    }

    /// The Swift case name of a preset (`gemini25Flash`), `nil` for a custom model.
    public var presetName: String? {
        switch self {
        case .gemini25FlashLite: "gemini25FlashLite"
        case .gemini25Flash: "gemini25Flash"
        case .gemini25Pro: "gemini25Pro"
        case .gemini3Flash: "gemini3Flash"
        case .gemini31FlashLite: "gemini31FlashLite"
        case .gemini31Pro: "gemini31Pro"
        case .gemini35FlashLite: "gemini35FlashLite"
        case .gemini35Flash: "gemini35Flash"
        case .gemini36Flash: "gemini36Flash"
        case .gemini38Flash: "gemini38Flash"
        case .custom: nil
        }
    }

    /// A human name (`Gemini 2.5 Flash-Lite`, `Gemini 3 Flash Preview`); a custom model's ID.
    public var displayName: String {
        switch self {
        case .gemini25FlashLite: "Gemini 2.5 Flash-Lite"
        case .gemini25Flash: "Gemini 2.5 Flash"
        case .gemini25Pro: "Gemini 2.5 Pro"
        case .gemini3Flash: "Gemini 3 Flash Preview"
        case .gemini31FlashLite: "Gemini 3.1 Flash-Lite"
        case .gemini31Pro: "Gemini 3.1 Pro Preview"
        case .gemini35FlashLite: "Gemini 3.5 Flash-Lite"
        case .gemini35Flash: "Gemini 3.5 Flash"
        case .gemini36Flash: "Gemini 3.6 Flash"
        case .gemini38Flash: "Gemini 3.8 Flash"
        case .custom(let id): id
        }
    }

    /// Whether the model has a free tier (F in the catalog). `false` for custom models.
    public var hasFreeTier: Bool {
        switch self {
        case .gemini25FlashLite, .gemini25Flash, .gemini31FlashLite, .gemini35FlashLite,
            .gemini36Flash, .gemini38Flash:
            true
        default: false
        }
    }

    /// Whether the model is paid only (P in the catalog). `false` for custom models.
    public var isPaidOnly: Bool { self == .gemini31Pro }

    /// Whether Google has deprecated the model (it may stop answering, with 404).
    public var isDeprecated: Bool { self == .gemini3Flash }

    /// Whether this is one of the catalog presets.
    public var isPreset: Bool { presetName != nil }

    /// Google's documented replacement, or `nil` (the newest models and custom ones).
    public var successor: GeminiModel? {
        switch self {
        case .gemini25FlashLite: .gemini31FlashLite
        case .gemini31FlashLite: .gemini35FlashLite
        case .gemini25Flash: .gemini35Flash
        case .gemini25Pro: .gemini31Pro
        case .gemini3Flash: .gemini36Flash
        default: nil
        }
    }

    /// The successors in order, following the chain until it ends (at most
    /// `allPresets.count` steps, so a chain can never loop).
    public var successorChain: [GeminiModel] {
        var chain: [GeminiModel] = []
        var current = self
        while chain.count < GeminiModel.allPresets.count, let next = current.successor {
            chain.append(next)
            current = next
        }
        return chain
    }

    /// The model for `id`: the preset with that ID, else ``custom(_:)``. A leading `models/`
    /// (as in `listModels` names) is removed first.
    public init(id: String) {
        let bare = id.hasPrefix("models/") ? String(id.dropFirst("models/".count)) : id
        self = GeminiModel.allPresets.first { $0.id == bare } ?? .custom(bare)
    }

    /// The preset named by its case name (`gemini25Flash`, any case) or its ID
    /// (`gemini-2.5-flash`); `nil` when no preset matches.
    public init?(presetName: String) {
        let lowered = presetName.lowercased()
        guard
            let preset = GeminiModel.allPresets.first(where: {
                $0.presetName?.lowercased() == lowered || $0.id == lowered
            })
        else { return nil }
        self = preset
    }

    /// The model a user typed: `custom:ID` forces a custom model; a preset name or a preset ID
    /// gives that preset; anything else is a custom model with that ID.
    public init(selection: String) {
        if selection.hasPrefix("custom:") {
            self = .custom(String(selection.dropFirst("custom:".count)))
        } else if let preset = GeminiModel(presetName: selection) {
            self = preset
        } else {
            self = GeminiModel(id: selection)
        }
    }

    /// The preset whose ID or case name is closest to `text` (at most 2 edits away, 1 for a
    /// `text` of 4 characters or fewer; a swap of neighbouring letters is one edit), for "did
    /// you mean" hints when a typed name matches no preset; `nil` when nothing is that close or
    /// `text` already names a preset.
    public static func closestPreset(to text: String) -> GeminiModel? {
        guard GeminiModel(presetName: text) == nil else { return nil }
        var best: (distance: Int, model: GeminiModel)?
        // Nothing is within 2 edits of text more than 3 characters longer than every name;
        // skipping it keeps the quadratic comparison off huge input.
        let longest = allPresets.map { max($0.id.count, ($0.presetName ?? $0.id).count) }.max() ?? 0
        guard text.count <= longest + 3 else { return nil }
        // Near means what every "did you mean" uses (docs/language.md): at most 2 edits, 1 for
        // a name of 4 characters or fewer.
        let limit = text.count <= 4 ? 1 : 2
        for preset in allPresets {
            let distance = min(
                EditDistance.between(text, preset.id, ignoringCase: true),
                EditDistance.between(text, preset.presetName ?? preset.id, ignoringCase: true))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (distance, preset) }
        }
        return best?.model
    }

    /// Whether `id` looks like a model ID the API can route: 1 to 128 characters from
    /// `A-Z a-z 0-9 . _ -`, starting with a letter or digit (no `/`, `:`, spaces).
    public static func isWellFormedID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= 128 else { return false }
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        return allowed(first)
            && id.unicodeScalars.allSatisfy { allowed($0) || "._-".unicodeScalars.contains($0) }
    }

    /// The ID.
    public var description: String { id }

    /// Decodes an ID string with ``init(id:)``.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(id: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes ``id``.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}

/// How a model selection became the model to call: directly, through Google's successor chain,
/// or by falling back. The shell says so when it is not ``Outcome/direct``.
public struct GeminiModelResolution: Sendable, Hashable {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The requested model is available (or custom) and is used as is.
        case direct
        /// The requested preset is outside the catalog; `chain` lists the successors walked,
        /// the last one being the model used.
        case successor(chain: [GeminiModel])
        /// Neither the model nor any successor is available: the fallback is used.
        case fallback
    }

    /// The model asked for.
    public let requested: GeminiModel
    /// The model to call.
    public let resolved: GeminiModel
    /// How ``resolved`` was reached.
    public let outcome: Outcome

    /// One English line for the user when the model changed, else `nil`:
    /// `gemini-2.5-flash is not available; using its successor gemini-3.5-flash` or
    /// `gemini-2.5-pro is not available; falling back to gemini-3.1-flash-lite`.
    public var notice: String? {
        switch outcome {
        case .direct: nil
        case .successor: "\(requested.id) is not available; using its successor \(resolved.id)"
        case .fallback: "\(requested.id) is not available; falling back to \(resolved.id)"
        }
    }

    /// Creates a resolution record.
    public init(requested: GeminiModel, resolved: GeminiModel, outcome: Outcome) {
        self.requested = requested
        self.resolved = resolved
        self.outcome = outcome
    }
}

extension GeminiModel {
    /// Resolves `self` against the app's catalog.
    ///
    /// A custom model passes through. A preset in `available` is used directly. Otherwise its
    /// successors are walked (at most `allPresets.count` hops) and the first available one is
    /// used; failing that, `fallback`.
    /// - Parameters:
    ///   - available: the models the app offers (its configuration's available models).
    ///   - fallback: the model to use when nothing in the chain is available.
    public func resolved(
        in available: [GeminiModel] = GeminiModel.allPresets, fallback: GeminiModel = .defaultFallback
    ) -> GeminiModelResolution {
        if case .custom = self {
            return GeminiModelResolution(requested: self, resolved: self, outcome: .direct)
        }
        if available.contains(self) {
            return GeminiModelResolution(requested: self, resolved: self, outcome: .direct)
        }
        var walked: [GeminiModel] = []
        for next in successorChain {
            walked.append(next)
            if available.contains(next) {
                return GeminiModelResolution(
                    requested: self, resolved: next, outcome: .successor(chain: walked))
            }
        }
        return GeminiModelResolution(requested: self, resolved: fallback, outcome: .fallback)
    }

    /// Resolves a stored selection (a model ID, or `nil` when nothing is stored, which selects
    /// `defaultModel`) with ``resolved(in:fallback:)``.
    public static func resolveSelection(
        _ storedID: String?, defaultModel: GeminiModel = .defaultModel,
        available: [GeminiModel] = GeminiModel.allPresets, fallback: GeminiModel = .defaultFallback
    ) -> GeminiModelResolution {
        let requested = storedID.map(GeminiModel.init(id:)) ?? defaultModel
        return requested.resolved(in: available, fallback: fallback)
    }
}

/// One model of `GET /v1beta/models` (the API's `Model`). Every field is optional: real
/// pages omit `baseModelId` everywhere and sampling fields on embedding models.
public struct GeminiModelInfo: Codable, Sendable, Hashable {
    /// The resource name, e.g. `models/gemini-2.5-flash`.
    public var name: String?
    /// The base model ID.
    public var baseModelId: String?
    /// The version, free-form (`001`, `2.5`, `3-flash-preview-12-2025`).
    public var version: String?
    /// A display name.
    public var displayName: String?
    /// A description.
    public var description: String?
    /// The input token limit.
    public var inputTokenLimit: Int?
    /// The output token limit.
    public var outputTokenLimit: Int?
    /// Methods such as `generateContent`, `countTokens` (never lists streaming).
    public var supportedGenerationMethods: [String]?
    /// The default temperature.
    public var temperature: Double?
    /// The highest accepted temperature.
    public var maxTemperature: Double?
    /// The default top-p.
    public var topP: Double?
    /// The default top-k.
    public var topK: Int?
    /// Whether the model thinks.
    public var thinking: Bool?

    /// The model ID without the `models/` prefix (`gemini-2.5-flash`), or `""`. A Vertex AI
    /// publisher model's name (`publishers/google/models/ID`) gives `ID`, another publisher's
    /// `PUBLISHER/ID` (the form a call names it by).
    public var id: String {
        guard let name else { return "" }
        if name.hasPrefix("models/") { return String(name.dropFirst("models/".count)) }
        guard name.hasPrefix("publishers/"), let models = name.range(of: "/models/") else { return name }
        let publisher = name[name.index(name.startIndex, offsetBy: "publishers/".count)..<models.lowerBound]
        let model = String(name[models.upperBound...])
        return publisher == "google" ? model : "\(publisher)/\(model)"
    }
}

/// One page of `GET /v1beta/models`: `{"models": [...], "nextPageToken": "..."}`; on Vertex AI
/// (`GET /v1beta1/publishers/google/models`) the models come as `publisherModels`, read into
/// ``models`` too.
public struct ListModelsResponse: Codable, Sendable, Hashable {
    /// The models of this page.
    public var models: [GeminiModelInfo]?
    /// The token of the next page; absent or empty on the last page.
    public var nextPageToken: String?

    private enum CodingKeys: String, CodingKey {
        case models, nextPageToken, publisherModels
    }

    /// A page of `models`.
    public init(models: [GeminiModelInfo]? = nil, nextPageToken: String? = nil) {
        self.models = models
        self.nextPageToken = nextPageToken
    }

    /// Decodes `models`, else Vertex AI's `publisherModels`, and `nextPageToken`.
    /// - Throws: `DecodingError` for a member of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        models =
            try container.decodeIfPresent([GeminiModelInfo].self, forKey: .models)
            ?? container.decodeIfPresent([GeminiModelInfo].self, forKey: .publisherModels)
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
    }

    /// Encodes `models` and `nextPageToken`.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(models, forKey: .models)
        try container.encodeIfPresent(nextPageToken, forKey: .nextPageToken)
    }
}
