import Foundation
import SophonCore
import SophonGemini

/// The tool-loop benchmark of `scripts/bench-tools` (docs/benchmarks.md, "Tool loop"): what
/// `generateWithTools` adds per round over the raw model exchanges it makes.
///
/// Both modes talk to ``CannedTransport``, an in-process server that answers at once, so the
/// time measured is the client's alone. A command is five rounds: four answers of one function
/// call (with a thought signature), then a text answer.
/// - `tools-loop`: one `generateWithTools` per command with an in-process handler (argument
///   check against the declaration, the handler run in a task group, the exact-history
///   conversation, usage summed, one observer event per round).
/// - `tools-raw`: the same five requests (the same growing histories, the same `tools`) sent
///   one by one with `sendRequest`, each reply decoded; no conversation, no handler.
enum ToolLoopBench {
    /// Model requests per command.
    static let rounds = 5

    static let declaration = FunctionDeclaration(
        name: "get_weather", description: "Current weather for one city",
        parameters: .object(properties: ["city": .string()], required: ["city"]))

    static let callReply = Data(
        #"{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lHLTE="}]}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 8, "totalTokenCount": 48}}"#
            .utf8)
    static let textReply = Data(
        #"{"candidates": [{"content": {"role": "model", "parts": [{"text": "It is 4 C in Oslo."}]}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 60, "candidatesTokenCount": 9, "totalTokenCount": 69}}"#
            .utf8)

    /// Answers a request whose history holds fewer than `2 * rounds - 1` contents with a call,
    /// else with the text answer; the count is of `"role"` keys in the body (one per content).
    struct CannedTransport: GeminiTransport {
        func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
            let body = request.body ?? Data()
            let key = Array(#""role""#.utf8)
            var count = 0
            body.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var index = 0
                while index + key.count <= bytes.count {
                    if bytes[index] == key[0], Array(bytes[index..<index + key.count]) == key {
                        count += 1
                        index += key.count
                    } else {
                        index += 1
                    }
                }
            }
            let reply =
                count < 2 * ToolLoopBench.rounds - 1 ? ToolLoopBench.callReply : ToolLoopBench.textReply
            return GeminiHTTPResponse(
                status: 200, headers: ["content-type": "application/json"], body: .data(reply))
        }
    }

    static func client() -> GeminiAPIClient {
        GeminiAPIClient(
            // The transport is in process: nothing is sent anywhere (a loopback base URL anyway).
            configuration: GeminiClientConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9")!, apiKeyProvider: { "bench-key" },
                observer: { _ in }),
            transport: CannedTransport())
    }

    /// One command through the tool loop.
    static func loopCall(_ client: GeminiAPIClient) -> @Sendable () async throws -> Void {
        let handler = GeminiFunctionHandler(declaration) { _ in .object([JSONMember("temp_c", .integer(4))]) }
        return {
            var conversation = GeminiConversation()
            let run = try await client.generateWithTools(
                label: "bench", conversation: &conversation, prompt: [.text("Weather in Oslo?")],
                handlers: [handler])
            guard run.rounds == rounds, run.text == "It is 4 C in Oslo." else {
                throw BenchError.badReply("rounds \(run.rounds): \(run.text)")
            }
        }
    }

    /// The same requests sent one by one.
    static func rawCall(_ client: GeminiAPIClient) throws -> @Sendable () async throws -> Void {
        let decoder = JSONDecoder()
        let user = try decoder.decode(
            Content.self, from: Data(#"{"role": "user", "parts": [{"text": "Weather in Oslo?"}]}"#.utf8))
        let model = try decoder.decode(
            Content.self,
            from: Data(
                #"{"role": "model", "parts": [{"functionCall": {"id": "fc-1", "name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": "U0lHLTE="}]}"#
                    .utf8))
        let answer = Content(
            role: "user",
            parts: [
                Part(
                    functionResponse: FunctionResponse(
                        id: "fc-1", name: "get_weather",
                        response: .object([JSONMember("temp_c", .integer(4))])))
            ])
        let histories = (0..<rounds).map { round in
            [user] + Array(repeating: [model, answer], count: round).flatMap { $0 }
        }
        let tools = JSONValue.array([Tool(functionDeclarations: [declaration]).jsonValue])
        return {
            for contents in histories {
                let result = try await client.sendRequest(label: "bench") { _ in
                    GenerateContentRequest(contents: contents, tools: tools)
                }
                guard result.response.candidates?.first?.content != nil else {
                    throw BenchError.badReply("empty")
                }
            }
        }
    }
}
