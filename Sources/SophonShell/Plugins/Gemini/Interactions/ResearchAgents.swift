/// The agents `research` runs (gemini-wire-format-3.md §1.12): Google's Deep Research agents.
enum ResearchAgents {
    /// The default: "designed for speed and efficiency, ideal to be streamed back to a client UI".
    static let standard = "deep-research-preview-04-2026"
    /// Every agent name `research --agent` takes.
    static let known = [standard, "deep-research-max-preview-04-2026", "deep-research-pro-preview-12-2025"]
    /// `agent_config` sent with a research job: thought summaries on, so its steps show.
    static let config = "deep-research"
}
