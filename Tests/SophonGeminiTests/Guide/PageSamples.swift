import Foundation
import SophonCore
import SophonGemini

/// The Swift samples of docs/interactions.md, docs/vertex.md and docs/running-many-prompts.md,
/// as written, inside functions that are compiled and never called: a page whose sample no
/// longer compiles fails the test build.
enum PageSamples {
    static func interactions(
        key: String, bookSchema: JSONValue, weather: FunctionDeclaration,
        weatherHandler: GeminiFunctionHandler
    ) async throws {
        let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { key }))

        // One turn, structured.
        let reply = try await client.interactions.create(
            GeminiInteractionRequest(
                input: .text("Name a book"),
                responseFormat: GeminiInteractionRequest.jsonResponseFormat(schema: bookSchema)))
        print(reply.interaction.outputText, reply.interaction.usage?.totalTokens ?? 0)

        // Streamed, assembled into steps (resumed after a cut by the retry policy).
        var assembler = GeminiInteractionAssembler()
        for try await event in client.interactions.stream(GeminiInteractionRequest(input: .text("Hi"))) {
            assembler.add(event)
            if let text = event.textDelta { print(text, terminator: "") }
        }

        // Tools: the same loop as generateContent's, continued by id (or stateless with store: false).
        var conversation = GeminiInteractionConversation(store: true)
        try conversation.appendUser([.text("Weather in Paris?")])
        let run = try await client.interactions.runTools(
            label: "weather", conversation: &conversation,
            request: GeminiInteractionRequest(
                input: .text(""), tools: [GeminiInteractionRequest.functionTool(weather)]),
            server: GeminiToolServer(handlers: [weatherHandler]))

        // A background agent.
        let job = try await client.interactions.create(
            GeminiInteractionRequest(
                agent: "deep-research-preview-04-2026", input: .text("..."), background: true))
        let done = try await client.interactions.wait(
            job.interaction.id, every: .seconds(1), upTo: .seconds(10))
        print(done.outputText, done.sources)
        _ = run
    }

    static func vertex() throws {
        var configuration = GeminiClientConfiguration()
        configuration.backend = .vertex(project: "my-project", location: "us-central1")
        let credentials = try GoogleCredentials.load(environment: ProcessInfo.processInfo.environment)
        configuration.accessTokens = GoogleAccessTokens(credentials: credentials)
        let client = GeminiAPIClient(configuration: configuration)
        _ = client
    }

    static func bulk(key: String, prompts: [(String, String)]) async throws {
        let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { key }))
        let requests = AsyncStream<BulkRequest> { continuation in
            for (key, prompt) in prompts {
                continuation.yield(
                    BulkRequest(key: key, request: GenerateContentRequest(contents: [.user(prompt)])))
            }
            continuation.finish()
        }
        for try await result in client.bulkRun(
            requests, options: BulkRunOptions(jobs: 8, requestsPerMinute: 600))
        {
            switch result.outcome {
            case .success(let value, let model, let usage):
                print(result.key, value, model, usage?.totalTokenCount ?? 0)
            case .failure(let error): print(result.key, error)
            }
        }
    }
}
