import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Synchronization

/// Logs each call of `run` (docs/logs.md): the requests are noted as they are built, and each
/// result is logged with its request when it arrives (prompt, system, schema, model, answer or
/// error, usage). The duration of one call of a run is not measured: it is logged as 0.
final class RunLog: Sendable {
    private let plugin: LogPlugin?
    private let io: ShellIO
    private let requests = Mutex<[String: BulkRequest]>([:])

    /// A log for the run of `context`; it logs nothing when logging is off.
    init(context: CommandContext) {
        plugin = ExchangeLog.logging(context)
        io = context.io
    }

    /// `build`, noting each request it makes.
    func noting(_ build: @escaping @Sendable (BulkInputLine) throws -> [BulkRequest])
        -> @Sendable (BulkInputLine) throws -> [BulkRequest]
    {
        guard plugin != nil else { return build }
        return { [self] line in
            let made = try build(line)
            requests.withLock { noted in
                for request in made { noted[request.key] = request }
            }
            return made
        }
    }

    /// Logs the result of one key with the request noted for it, and its cost (as
    /// ``RunSpending`` priced it; `nil`: unknown).
    func record(_ result: BulkResult, redact: (String) -> String, cost: Double?) {
        guard let plugin, let request = requests.withLock({ $0.removeValue(forKey: result.key) }) else {
            return
        }
        let prompt = (request.request.contents.last?.parts ?? []).compactMap(\.text).joined(separator: "\n")
        var entry = LogEntry(
            time: Date(), command: "run", model: request.model?.id ?? "", prompt: prompt,
            systemInstruction: request.request.systemInstruction.map {
                ($0.parts ?? []).compactMap(\.text).joined()
            },
            schema: request.schema?.jsonValue.compactText)
        switch result.outcome {
        case .success(let value, let model, let usage):
            entry.model = model
            entry.answer = value.stringValue.map(redact) ?? redact(value.compactText)
            entry.count(usage)
            entry.cost = cost
        case .failure(let error):
            entry.error = "\(GeminiCall.kind(of: error).rawValue): \(error.description(language: "en"))"
        }
        do {
            _ = try plugin.withStore(io: io) { try $0.append(entry) }
        } catch {
            io.printError(ShellMessages.warning("not logged: \(error)"))
        }
    }
}
