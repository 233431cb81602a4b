// The Swift side of `scripts/bench`: timed client loops against the fake Gemini server.
//
//   SophonBench MODE --base-url URL [--calls N] [--concurrency C] [--warmup W]
//
// MODE
//   sophon         N structured calls through `GeminiAPIClient.generateStructured` (schema,
//                  retry policy, extractor, schema selection, lenient decoding).
//   floor          the minimal Swift loop: URLSession `data(for:)` + `JSONDecoder` (response,
//                  then the answer text into the same struct), no retry, no validation.
//   tools-loop     N commands of automatic function calling (`generateWithTools`, 5 rounds,
//                  in-process handler) against an in-process canned transport (ToolLoopBench).
//   tools-raw      the same 5 requests per command sent one by one with `sendRequest`.
//   sophon-stream  N streamed calls through `GeminiAPIClient.streamGenerateContent`: the
//                  latency from the server's first SSE event (its CLOCK_MONOTONIC stamp is the
//                  event's text, `t=SECONDS`) to the first chunk the client delivers.
//
// Prints one JSON object on stdout: calls, seconds, CPU seconds of the measured loop (getrusage,
// warm-up excluded), errors, and `latencies_ms` for streams. Peak RSS is taken by the parent.

import Foundation
import SophonCore
import SophonGemini
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The structured answer the fake server returns.
struct Movie: Codable, Sendable {
    let title: String
    let year: Int
    let rating: Double
    let tags: [String]
}

/// The minimal client's view of a `generateContent` reply.
struct MinimalReply: Decodable {
    struct Candidate: Decodable {
        struct Content: Decodable {
            struct Part: Decodable { let text: String? }
            let parts: [Part]?
        }
        let content: Content?
    }
    let candidates: [Candidate]?
}

/// The minimal client's request: a Codable struct encoded per call with `JSONEncoder`.
struct FloorRequest: Encodable, Sendable {
    struct Content: Encodable, Sendable {
        struct Part: Encodable, Sendable { let text: String }
        let role: String
        let parts: [Part]
    }
    struct Config: Encodable, Sendable {
        let responseMimeType: String
        let responseSchema: FloorSchema
    }
    let contents: [Content]
    let generationConfig: Config
}

/// A response schema for the minimal client (a class, so it can nest).
final class FloorSchema: Encodable, Sendable {
    let type: String
    let properties: [String: FloorSchema]?
    let items: FloorSchema?
    let required: [String]?
    let propertyOrdering: [String]?
    let minimum: Double?
    let maximum: Double?

    init(
        type: String, properties: [String: FloorSchema]? = nil, items: FloorSchema? = nil,
        required: [String]? = nil, propertyOrdering: [String]? = nil, minimum: Double? = nil,
        maximum: Double? = nil
    ) {
        self.type = type
        self.properties = properties
        self.items = items
        self.required = required
        self.propertyOrdering = propertyOrdering
        self.minimum = minimum
        self.maximum = maximum
    }
}

struct Options {
    var mode = ""
    var baseURL = "http://127.0.0.1:8080"
    var calls = 1000
    var concurrency = 1
    var warmup = 50
}

enum BenchError: Error { case usage(String), badReply(String) }

let prompt = "Extract the film: Arrival (2016), directed by Denis Villeneuve, rated 7.9."

let movieSchema = GeminiSchema.object(
    properties: [
        "title": .string(), "year": .integer(), "rating": .number(minimum: 0, maximum: 10),
        "tags": .array(items: .string()),
    ], required: ["title", "year", "rating", "tags"])

func parseOptions() throws -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    guard let mode = arguments.popFirst() else { throw BenchError.usage("missing MODE") }
    options.mode = mode
    while let flag = arguments.popFirst() {
        guard let value = arguments.popFirst() else { throw BenchError.usage("\(flag) needs a value") }
        switch flag {
        case "--base-url": options.baseURL = value
        case "--calls": options.calls = Int(value) ?? options.calls
        case "--concurrency": options.concurrency = max(1, Int(value) ?? 1)
        case "--warmup": options.warmup = max(0, Int(value) ?? 0)
        default: throw BenchError.usage("unknown flag \(flag)")
        }
    }
    return options
}

/// User plus system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// CLOCK_MONOTONIC in seconds: the clock the server stamps its first SSE event with.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Two counters shared by the workers of one loop.
final class Counters: Sendable {
    let next = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
}

/// Runs `count` calls of `call` on `concurrency` workers pulling from one counter.
func runCalls(
    count: Int, concurrency: Int, _ call: @escaping @Sendable () async throws -> Void
) async -> Int {
    let counters = Counters()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                while counters.next.add(1, ordering: .relaxed).oldValue < count {
                    do { try await call() } catch {
                        if counters.errors.add(1, ordering: .relaxed).oldValue == 0 {
                            FileHandle.standardError.write(Data("first error: \(error)\n".utf8))
                        }
                    }
                }
            }
        }
    }
    return counters.errors.load(ordering: .relaxed)
}

func makeSophonClient(_ options: Options) throws -> GeminiAPIClient {
    guard let url = URL(string: options.baseURL) else { throw BenchError.usage("bad --base-url") }
    let configuration = GeminiClientConfiguration(baseURL: url, apiKeyProvider: { "test-key" })
    return GeminiAPIClient(configuration: configuration)
}

func sophonCall(_ client: GeminiAPIClient) -> @Sendable () async throws -> Void {
    {
        let result = try await client.generateStructured(
            Movie.self, label: "bench", prompt: prompt, schema: movieSchema)
        guard result.value.year == 2016 else { throw BenchError.badReply("year \(result.value.year)") }
    }
}

func floorCall(_ options: Options) throws -> @Sendable () async throws -> Void {
    let model = GeminiModel.defaultModel.id
    guard let url = URL(string: "\(options.baseURL)/v1beta/models/\(model):generateContent") else {
        throw BenchError.usage("bad --base-url")
    }
    let schema = FloorSchema(
        type: "OBJECT",
        properties: [
            "title": FloorSchema(type: "STRING"), "year": FloorSchema(type: "INTEGER"),
            "rating": FloorSchema(type: "NUMBER", minimum: 0, maximum: 10),
            "tags": FloorSchema(type: "ARRAY", items: FloorSchema(type: "STRING")),
        ],
        required: ["title", "year", "rating", "tags"], propertyOrdering: ["title", "year", "rating", "tags"])
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 64
    let session = URLSession(configuration: configuration)
    return {
        let request = FloorRequest(
            contents: [.init(role: "user", parts: [.init(text: prompt)])],
            generationConfig: .init(responseMimeType: "application/json", responseSchema: schema))
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = try JSONEncoder().encode(request)
        urlRequest.setValue("application/json", forHTTPHeaderField: "content-type")
        urlRequest.setValue("test-key", forHTTPHeaderField: "x-goog-api-key")
        let (data, response) = try await session.data(for: urlRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchError.badReply("status") }
        let reply = try JSONDecoder().decode(MinimalReply.self, from: data)
        guard let text = reply.candidates?.first?.content?.parts?.first?.text else {
            throw BenchError.badReply("no text")
        }
        let movie = try JSONDecoder().decode(Movie.self, from: Data(text.utf8))
        guard movie.year == 2016 else { throw BenchError.badReply("year \(movie.year)") }
    }
}

/// One streamed call: seconds from the server's stamp to the first delivered chunk.
func streamLatency(_ client: GeminiAPIClient) async throws -> Double {
    let request = client.buildRequest(parts: [], promptText: prompt, responseSchema: nil)
    var latency: Double?
    for try await chunk in client.streamGenerateContent(label: "bench", request: request) {
        let arrived = monotonicSeconds()
        if latency == nil {
            let text = chunk.text
            guard text.hasPrefix("t="), let stamp = Double(text.dropFirst(2)) else {
                throw BenchError.badReply("first chunk \(text)")
            }
            latency = arrived - stamp
        }
    }
    guard let latency else { throw BenchError.badReply("no chunk") }
    return latency
}

func run() async throws {
    let options = try parseOptions()
    var report: [String: Any] = [
        "mode": options.mode, "concurrency": options.concurrency, "calls": options.calls,
    ]
    switch options.mode {
    case "sophon", "floor":
        let call = try options.mode == "sophon" ? sophonCall(makeSophonClient(options)) : floorCall(options)
        let warmErrors = await runCalls(
            count: options.warmup, concurrency: min(options.concurrency, max(options.warmup, 1)), call)
        let cpuBefore = cpuSeconds()
        let start = monotonicSeconds()
        let errors = await runCalls(count: options.calls, concurrency: options.concurrency, call)
        report["seconds"] = monotonicSeconds() - start
        report["cpu_seconds"] = cpuSeconds() - cpuBefore
        report["errors"] = errors + warmErrors
    case "tools-loop", "tools-raw":
        // docs/benchmarks.md, "Tool loop": in process, no server; `--calls` commands of
        // ToolLoopBench.rounds rounds each.
        let client = ToolLoopBench.client()
        let call =
            try options.mode == "tools-loop" ? ToolLoopBench.loopCall(client) : ToolLoopBench.rawCall(client)
        report["errors"] = await runCalls(count: options.warmup, concurrency: 1, call)
        let cpuBefore = cpuSeconds()
        let start = monotonicSeconds()
        let errors = await runCalls(count: options.calls, concurrency: 1, call)
        report["seconds"] = monotonicSeconds() - start
        report["cpu_seconds"] = cpuSeconds() - cpuBefore
        report["rounds_per_call"] = ToolLoopBench.rounds
        report["errors"] = errors + (report["errors"] as? Int ?? 0)
    case "sophon-stream":
        let client = try makeSophonClient(options)
        for _ in 0..<options.warmup { _ = try await streamLatency(client) }
        var latencies: [Double] = []
        for _ in 0..<options.calls { latencies.append(try await streamLatency(client) * 1000) }
        report["latencies_ms"] = latencies
        report["errors"] = 0
    default:
        throw BenchError.usage("unknown mode \(options.mode)")
    }
    let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("SophonBench: \(error)\n".utf8))
    exit(2)
}
