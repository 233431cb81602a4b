import SophonCore

/// The Gemini REST client library: `GeminiAPIClient`, schemas, retry policies, the model
/// catalog and typed errors. See README.md for a tour.
public enum SophonGemini {
    /// The API version path segment every request uses (`/v1beta/...`).
    public static let apiVersion = "v1beta"
}
