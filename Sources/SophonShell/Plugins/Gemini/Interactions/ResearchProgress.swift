import Foundation
import SophonGemini

/// What a research job shows while it runs (docs/interactions.md): each new step once, as a
/// progress line on stderr when it is a terminal (rewritten in place), else as plain lines
/// `[step N] TEXT`.
struct ResearchProgress {
    let io: ShellIO
    let onTerminal: Bool
    /// Steps already seen (the whole timeline, `user_input` steps included).
    private var shown = 0
    /// Steps printed: `[step N]` counts these, from 1 (the user's input is not a step shown).
    private var printed = 0
    /// Whether a progress line waits to be cleared.
    private var lineOpen = false

    init(io: ShellIO, onTerminal: Bool = Terminal.isTerminal(STDERR_FILENO)) {
        self.io = io
        self.onTerminal = onTerminal
    }

    /// Shows the steps of `interaction` not shown yet.
    mutating func show(_ interaction: GeminiInteraction) {
        let steps = interaction.steps
        guard steps.count > shown else { return }
        for step in steps.dropFirst(shown) {
            guard let text = Self.text(of: step) else { continue }
            printed += 1
            if onTerminal {
                io.stderr.write("\r\u{1B}[K" + String("[\(interaction.status)] \(text)".prefix(100)))
                lineOpen = true
            } else {
                io.printError("[step \(printed)] \(text)")
            }
        }
        shown = steps.count
    }

    /// Clears the progress line (on a terminal).
    mutating func finish() {
        if lineOpen { io.stderr.write("\r\u{1B}[K") }
        lineOpen = false
    }

    /// One line for a step; `nil` for the user's own input.
    static func text(of step: GeminiInteractionStep) -> String? {
        switch step.kind {
        case .userInput: return nil
        case .thought(_, let summary):
            let line = summary.joined(separator: " ").split(separator: "\n").first.map(String.init) ?? ""
            return line.isEmpty ? "thinking" : line
        case .modelOutput: return "writing the report"
        case .functionCall(let call): return "calling \(call.name)"
        case .functionResult(_, let name, _, _): return "result of \(name ?? "a function")"
        case .toolCall(let type, _, let arguments):
            let detail = arguments.map { " \($0.compactText)" } ?? ""
            return String(type.dropLast("_call".count)).replacingOccurrences(of: "_", with: " ") + detail
        case .toolResult(let type, _, _):
            return String(type.dropLast("_result".count)).replacingOccurrences(of: "_", with: " ") + " done"
        case .other(let type): return type
        }
    }
}
