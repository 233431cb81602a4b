/// Placeholder for the model catalog; replaced wholesale by the model-catalog helper.
public enum GeminiModel: Sendable, Hashable {
    /// `gemini-2.5-flash-lite` (free tier).
    case gemini25FlashLite
    /// `gemini-2.5-flash` (free tier).
    case gemini25Flash
    /// `gemini-2.5-pro`.
    case gemini25Pro
    /// `gemini-3-flash-preview` (deprecated).
    case gemini3Flash
    /// `gemini-3.1-flash-lite` (free tier).
    case gemini31FlashLite
    /// `gemini-3.1-pro-preview` (paid only).
    case gemini31Pro
    /// `gemini-3.5-flash-lite` (free tier).
    case gemini35FlashLite
    /// `gemini-3.5-flash`.
    case gemini35Flash
    /// `gemini-3.6-flash` (free tier).
    case gemini36Flash
    /// `gemini-3.8-flash` (free tier).
    case gemini38Flash
    /// Any other model ID, used as given.
    case custom(String)

    /// The API model ID (without the `models/` prefix).
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
}
