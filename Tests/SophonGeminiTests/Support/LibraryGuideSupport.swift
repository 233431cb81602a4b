import Foundation
import SophonCore
import SophonGemini
import Synchronization

// The support code of docs/library.md, as the guide prints it. Plain `import SophonGemini`
// (not `@testable`): the guide's samples use the public API only.

/// A transport that answers from canned replies, in order, and keeps the requests it saw
/// (docs/library.md, "Testing your code").
final class CannedTransport: GeminiTransport {
    private let replies: Mutex<[(status: Int, body: String)]>
    private let seen = Mutex<[GeminiHTTPRequest]>([])

    init(_ replies: [(status: Int, body: String)]) { self.replies = Mutex(replies) }

    /// The requests sent so far, oldest first.
    var requests: [GeminiHTTPRequest] { seen.withLock { $0 } }

    func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        seen.withLock { $0.append(request) }
        let reply = replies.withLock { $0.isEmpty ? (status: 500, body: "no reply left") : $0.removeFirst() }
        let data = Data(reply.body.utf8)
        guard request.streaming else {
            return GeminiHTTPResponse(status: reply.status, headers: [:], body: .data(data))
        }
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.yield(data)
        continuation.finish()
        return GeminiHTTPResponse(
            status: reply.status, headers: ["content-type": "text/event-stream"], body: .stream(stream))
    }
}

/// A `generateContent` reply whose answer is `text` (docs/library.md).
func answer(_ text: String) -> String {
    """
    {"candidates": [{"content": {"role": "model", "parts": [{"text": \(JSONValue.string(text).compactText)}]},
      "finishReason": "STOP"}],
     "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 12, "totalTokenCount": 20}}
    """
}

/// A client over canned replies: a fixed key, no real sleeping (docs/library.md).
func cannedClient(
    _ replies: [(status: Int, body: String)], retryPolicy: GeminiRetryPolicy = .default,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }
) -> (GeminiAPIClient, CannedTransport) {
    let transport = CannedTransport(replies)
    // A whole-call limit no test here reaches: a loaded machine can starve the test pool for
    // minutes, and these tests do not measure deadlines.
    let configuration = GeminiClientConfiguration(
        requestTimeout: .seconds(3_600), callTimeout: .seconds(3_600), retryPolicy: retryPolicy,
        apiKeyProvider: { "test-key" }, sleep: sleep)
    return (GeminiAPIClient(configuration: configuration, transport: transport), transport)
}

// MARK: - The original API's configuration, verbatim (docs/library.md, "Configuration")

/// The app's logger (docs/library.md): this one keeps the lines it is given.
enum MyLogger {
    static let lines = Mutex<[String]>([])

    static func log(_ level: LogLevel, _ message: String) {
        lines.withLock { $0.append("\(level): \(message)") }
    }
}

extension GeminiClientConfiguration {
    static let myApp = GeminiClientConfiguration(
        keychainAccount: "com.myapp.geminiAPIKey",
        defaultModel: .gemini38Flash,
        availableModels: [.gemini31FlashLite, .gemini31Pro, .gemini35FlashLite, .gemini38Flash],
        retryPolicy: .default,
        logHandler: { level, message in MyLogger.log(level, message) }
    )
}

extension GeminiAPIClient {
    static let shared = GeminiAPIClient(configuration: .myApp)
}

/// The original API's structured result type, verbatim.
struct Extraction: Decodable { let title: String }

/// The original API's `send` result type (its fields are the app's).
struct MyResult: Decodable { let species: String }

/// The original API's calls on `.shared`, verbatim. Compiled, never run (`.shared` talks to Google);
/// `LibraryGuideSamplesTests` runs the same calls on a canned client.
func seedCallsCompileAsWritten(
    promptText: String, conversationContents: [Content], images: [Data], prompt: String, apiKey: String,
    schema: GeminiSchema
) async throws {
    let result = try await GeminiAPIClient.shared.generateStructured(
        Extraction.self,
        label: "extract",
        prompt: promptText,
        schema: .object(properties: ["title": .string()], required: ["title"])
    )
    let reply = try await GeminiAPIClient.shared.generateText(
        label: "followUp",
        contents: conversationContents
    )
    let client = GeminiAPIClient.shared
    let identified = try await client.send(MyResult.self, label: "identify") { variant in
        let parts = try await client.encodeImages(images, variant: variant)
        return try client.buildRequest(
            parts: parts, promptText: prompt, apiKey: apiKey, modelID: variant.modelID, responseSchema: schema
        )
    }
    _ = (result, reply, identified)
}
