import SophonGemini

/// The wording of the Interactions commands (docs/interactions.md), in one place.
enum InteractionMessages {
    /// `show interaction` before any.
    static let noInteraction = "(no interaction yet; set api interactions, then ask or chat)"

    /// A generation setting left out of an interaction, named as `set` names it (`top-p`,
    /// `safety`), from the request field the library reports (`topP`, `safetySettings`).
    static func notSent(_ field: String) -> String {
        let name =
            field == "thinkingBudget" ? "a thinking budget" : GenerationSettings.fieldSettings[field] ?? field
        return "\(name) is not sent: the Interactions API has no such setting"
    }

    /// The stored interaction a turn continued is gone (HTTP `status`, the server's `reason`).
    static func expired(_ id: String, status: Int, reason: String, steps: Int) -> String {
        let why = reason.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(reason)"
        return "interaction \(id) is no longer on the server (expired, deleted, or made with store off) "
            + "and the conversation cannot continue from it (\(why)); "
            + "the conversation's \(steps) steps are kept here: the next chat sends them whole "
            + "('set store off' keeps sending them without storing), or 'reset' starts over"
    }

    /// A stream cut more often than the retry policy resumes it.
    static func cut(_ error: GeminiError, partialText: String) -> String {
        let arrived =
            partialText.isEmpty
            ? "nothing had arrived"
            : "what arrived (\(partialText.count) characters): \(String(partialText.prefix(200)))"
        return "the interaction's stream ended before interaction.completed and could not be resumed "
            + "within the retry policy's attempts; \(arrived)"
    }

    /// An agent name the shell does not know.
    static func unknownAgent(_ name: String) -> String {
        "research: unknown agent '\(name)'; known agents: "
            + ResearchAgents.known.joined(separator: ", ")
    }

    /// A research job left running after Ctrl-C.
    static func detached(_ id: String) -> String {
        "detached: research job \(id) goes on on the server; 'agent wait \(id)' picks it up, 'agents' lists jobs"
    }

    /// Ctrl-C while a research job is being created.
    static let interruptedWhileCreating =
        "interrupted while creating the research job; it is in the journal ('agents'), without its id if the server had not answered"

    /// A research job that ended without a report.
    static func ended(_ id: String, status: String, errors: [GeminiInteractionError]) -> String {
        let why = errors.isEmpty ? "" : ": " + errors.map(\.description).joined(separator: "; ")
        return "research job \(id) ended \(status)\(why)"
    }

    /// `agent cancel ID` of a job that has already ended (the server refuses the cancel).
    static func notRunning(_ id: String, status: String) -> String {
        "agent cancel: research job \(id) has already ended (\(status)); there is nothing to cancel"
    }

    /// `agent SUBCOMMAND ID` of a job the journal does not know and the server does not have
    /// (the runtime puts `agent status: ` before it).
    static func unknownJob(_ id: String) -> String {
        "no research job '\(id)' (see 'agents')"
    }
}
