import Foundation
import SophonGemini

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A plain URLSession for SOPHON_SOAK_MODE=raw (Foundation alone, no client).
let rawSession = URLSession(configuration: .ephemeral)

/// One soak phase: `count` calls at `concurrency` through one client, with outcomes and RSS
/// samples.
struct SoakRun {
    /// How one call ended.
    struct Outcome: Sendable {
        /// The call's number (its marker in the prompt).
        let index: Int
        /// `nil` for success, else the GeminiError case name.
        let errorCase: String?
        /// Wall time of the call in seconds.
        let seconds: Double
        /// What broke a rule, if anything.
        let violation: String?
    }

    /// The model asked for; a `not_found` fault sends the call to the configured fallback.
    static let model = GeminiModel(id: "gemini-2.5-flash")
    /// A call longer than this broke its deadline (the client's call timeout plus slack).
    static let deadline: Duration = .seconds(7)
    /// A call still running after this is treated as hung and cancelled.
    static let hangLimit: Duration = .seconds(30)

    let client: GeminiAPIClient
    let firstIndex: Int
    let count: Int
    let concurrency: Int

    /// Runs the calls; `sample` is called after every 20 completed calls.
    func run(sample: @escaping @Sendable () -> Void) async -> [Outcome] {
        var outcomes: [Outcome] = []
        await withTaskGroup(of: Outcome.self) { group in
            var next = firstIndex
            let end = firstIndex + count
            func addNext() {
                guard next < end else { return }
                let index = next
                next += 1
                group.addTask { await Self.guarded(index: index, client: client) }
            }
            for _ in 0..<min(concurrency, count) { addNext() }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if outcomes.count % 20 == 0 { sample() }
                addNext()
            }
        }
        return outcomes
    }

    /// Runs one call, racing it against the hang limit.
    private static func guarded(index: Int, client: GeminiAPIClient) async -> Outcome {
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask { await call(index: index, client: client) }
            group.addTask {
                try? await Task.sleep(for: hangLimit)
                return Task.isCancelled
                    ? nil
                    : Outcome(
                        index: index, errorCase: "hang", seconds: 30,
                        violation: "call \(index) still running after \(hangLimit)")
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? Outcome(index: index, errorCase: "?", seconds: 0, violation: "call \(index) lost")
        }
    }

    private static func call(index: Int, client: GeminiAPIClient) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let prompt = "soak-call-\(index)- say hello"
        var errorCase: String?
        var violation: String?
        do {
            let mode = ProcessInfo.processInfo.environment["SOPHON_SOAK_MODE"] ?? ""
            if mode == "raw" {
                var request = URLRequest(
                    url: client.configuration.baseURL.appendingPathComponent("v1beta/models"))
                request.setValue(
                    client.configuration.apiKeyProvider() ?? "", forHTTPHeaderField: "x-goog-api-key")
                _ = try await rawSession.data(for: request)
            } else if mode == "stream" || (mode.isEmpty && index % 2 == 1) {
                let request = GenerateContentRequest(contents: [.user(prompt)])
                for try await _ in client.streamGenerateContent(label: "soak", model: model, request: request)
                {}
            } else {
                _ = try await client.generateText(label: "soak", contents: [.user(prompt)], model: model)
            }
        } catch let error as GeminiError {
            errorCase = Mirror(reflecting: error).children.first?.label ?? "\(error)"
        } catch {
            errorCase = "untyped"
            violation = "call \(index) threw an untyped error: \(type(of: error)) \(error)"
        }
        let elapsed = clock.now - start
        if violation == nil, elapsed > deadline {
            violation = "call \(index) took \(elapsed), over its deadline \(deadline)"
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Outcome(index: index, errorCase: errorCase, seconds: seconds, violation: violation)
    }
}
