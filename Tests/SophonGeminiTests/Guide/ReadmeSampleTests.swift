import SophonGemini
import Testing

/// The README's library sample, verbatim: it must keep compiling. It is never run (it would
/// reach Google); the test checks the configuration it builds.
@Suite struct ReadmeSampleTests {
    struct Book: Decodable, Sendable {
        let title: String
        let year: Int
    }

    static func readmeSample() async throws {
        let client = GeminiAPIClient(
            configuration: GeminiClientConfiguration(
                keychainAccount: "gemini", defaultModel: .gemini31FlashLite, retryPolicy: .default))
        let result = try await client.generateStructured(
            Book.self, label: "book", prompt: "Recommend a novel about first contact.",
            schema: .object(
                properties: ["title": .string(), "year": .integer()], required: ["title", "year"]),
            retryPolicy: .minimal)
        print(result.value.title, result.usage?.totalTokenCount ?? 0, result.retryCount)
    }

    @Test func configurationOfTheSample() {
        let configuration = GeminiClientConfiguration(
            keychainAccount: "gemini", defaultModel: .gemini31FlashLite, retryPolicy: .default)
        #expect(configuration.defaultModel.id == "gemini-3.1-flash-lite")
        #expect(configuration.retryPolicy == .default)
        #expect(configuration.baseURL.absoluteString == "https://generativelanguage.googleapis.com")
    }
}
