// scripts/soak [CALLS] [CONCURRENCY]: a fault soak of GeminiAPIClient against
// scripts/fake_gemini.py (docs/reliability.md). Exits 1 on any violation.
import Foundation
import SophonGemini

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst()
let calls = arguments.first.flatMap { Int($0) } ?? 2000
let concurrency = arguments.dropFirst().first.flatMap { Int($0) } ?? 16
guard calls >= 10, concurrency >= 1 else {
    FileHandle.standardError.write(Data("usage: soak [CALLS >= 10] [CONCURRENCY >= 1]\n".utf8))
    exit(2)
}
let script = ProcessInfo.processInfo.environment["SOPHON_FAKE_GEMINI"] ?? "scripts/fake_gemini.py"
let policy = GeminiRetryPolicy(
    attempts: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100), jitter: 0.2,
    honoursServerWait: true, maxServerWait: .seconds(2), fallbackOn404: true, downscale: false)

var violations: [String] = []
let server: FakeServerControl
do { server = try FakeServerControl(script: script) } catch {
    FileHandle.standardError.write(Data("soak: \(error)\n".utf8))
    exit(2)
}
let key = server.key
let configuration = GeminiClientConfiguration(
    baseURL: server.baseURL, requestTimeout: .seconds(1), callTimeout: .seconds(5), retryPolicy: policy,
    apiKeyProvider: { key })

/// RSS samples (kB), appended from the run's completion loop.
final class Samples: @unchecked Sendable {
    // @unchecked: only the task-group loop of one phase appends, and reads happen after it ends.
    var values: [Int] = []
}

/// Runs one phase with a fresh client (the server's queue is scripted once, up front).
@MainActor func phase(first: Int, count: Int, samples: Samples) async -> [SoakRun.Outcome] {
    let client = GeminiAPIClient(configuration: configuration)
    let outcomes = await SoakRun(client: client, firstIndex: first, count: count, concurrency: concurrency)
        .run { if let rss = ProcessStats.residentKilobytes() { samples.values.append(rss) } }
    if let rss = ProcessStats.residentKilobytes() { samples.values.append(rss) }
    return outcomes
}

/// Checks that no call was tried more often than the policy allows (+1 for the 404 fallback).
@MainActor func checkAttempts(name: String) async {
    guard let requests = try? await server.requests() else {
        violations.append("\(name): could not read the request log")
        return
    }
    let fallback = configuration.fallbackModel.id
    var primary: [Int: Int] = [:]
    var onFallback: [Int: Int] = [:]
    let regex = /soak-call-(\d+)-/
    for request in requests {
        guard let match = request.body.firstMatch(of: regex), let index = Int(match.1) else { continue }
        if request.path.contains("/models/\(fallback):") {
            onFallback[index, default: 0] += 1
        } else {
            primary[index, default: 0] += 1
        }
    }
    for index in Set(primary.keys).union(onFallback.keys).sorted() {
        let total = primary[index, default: 0] + onFallback[index, default: 0]
        let allowed = policy.attempts + (onFallback[index] == nil ? 0 : 1)
        if total > allowed {
            violations.append("\(name): call \(index) made \(total) attempts, the policy allows \(allowed)")
        }
    }
    let attemptCount = primary.values.reduce(0, +) + onFallback.values.reduce(0, +)
    print(
        "\(name): the server saw \(attemptCount) attempts for \(primary.count) calls (\(onFallback.count) fell back)"
    )
}

let clock = ContinuousClock()
let started = clock.now
do {
    var generator = SystemRandomNumberGenerator()
    // SOPHON_SOAK_FAULTS=off queues only successful replies (to tell fault handling apart).
    let faults = ProcessInfo.processInfo.environment["SOPHON_SOAK_FAULTS"] != "off"
    try await server.script(
        (0..<(calls * 2)).map { _ in
            faults ? SoakFaults.reply(using: &generator) : ["kind": "generate", "text": "soak answer"]
        })
} catch {
    FileHandle.standardError.write(Data("soak: could not script the server: \(error)\n".utf8))
    server.stop()
    exit(2)
}
// Warm-up: a first client, dropped again, so process-wide one-time set-up (URLSession, curl,
// the cooperative pool) happens before the descriptor count.
let warmCount = max(concurrency * 2, calls / 10)
let warm = await phase(first: 0, count: warmCount, samples: Samples())
try? await Task.sleep(for: .seconds(1))
let fdBefore = ProcessStats.openDescriptors()

// The main phase: RSS is sampled every 20 calls; its first fifth is the RSS warm-up.
let mainSamples = Samples()
let main = await phase(first: warmCount, count: calls - warmCount, samples: mainSamples)
try? await Task.sleep(for: .seconds(1))
let fdAfter = ProcessStats.openDescriptors()
await checkAttempts(name: "all calls")

let outcomes = warm + main
violations += outcomes.compactMap(\.violation)
if outcomes.count != calls { violations.append("\(outcomes.count) of \(calls) calls ended") }

let leaked = fdAfter.filter { fdBefore[$0.key] == nil }
if !leaked.isEmpty {
    let list = leaked.sorted { $0.key < $1.key }.map { "\($0.key) -> \($0.value)" }.joined(separator: ", ")
    violations.append("file descriptors leaked: \(fdBefore.count) before, \(fdAfter.count) after (\(list))")
}
let warmSamples = mainSamples.values.prefix(max(1, mainSamples.values.count / 5))
let baseline = warmSamples.max() ?? 0
let peak = mainSamples.values.max() ?? 0
if baseline > 0, Double(peak) > Double(baseline) * 1.10 {
    violations.append("RSS grew after warm-up: \(baseline) kB at warm-up, peak \(peak) kB (over 10%)")
}

var byCase: [String: Int] = [:]
for outcome in outcomes { byCase[outcome.errorCase ?? "success", default: 0] += 1 }
let times = outcomes.map(\.seconds).sorted()
func percentile(_ p: Double) -> Double {
    times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * p))]
}
let total = clock.now - started
print("soak: \(calls) calls at concurrency \(concurrency) (\(warmCount) warm-up) in \(total)")
print(
    "outcomes: " + byCase.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
print(
    String(
        format: "call time: p50 %.3f s, p99 %.3f s, max %.3f s", percentile(0.5), percentile(0.99),
        times.last ?? 0))
print("MALLOC_ARENA_MAX=\(ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] ?? "(glibc default)")")
print("RSS: warm-up \(baseline) kB, main peak \(peak) kB, end \(mainSamples.values.last ?? 0) kB")
let quarters = (1...4).compactMap { q in
    mainSamples.values.isEmpty ? nil : mainSamples.values[(mainSamples.values.count - 1) * q / 4]
}
print("RSS over the main phase (quarters, kB): " + quarters.map(String.init).joined(separator: ", "))
print("file descriptors: \(fdBefore.count) before, \(fdAfter.count) after")
server.stop()
if violations.isEmpty {
    print("soak: OK")
} else {
    for violation in violations.prefix(50) { print("VIOLATION: \(violation)") }
    print("soak: FAILED (\(violations.count) violations)")
    exit(1)
}
