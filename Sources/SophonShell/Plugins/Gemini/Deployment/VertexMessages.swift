/// What the shell says about Vertex AI (docs/vertex.md, "What works on Vertex AI").
enum VertexMessages {
    /// Why `command` does not run on Vertex AI, said before anything is sent:
    /// `files: Vertex AI has no Files API; ...`.
    static func refusal(_ command: String) -> String {
        let why =
            switch command {
            case "files": "Vertex AI has no Files API; media goes inline (attach) or by gs:// URI"
            case "batch":
                "Vertex AI's batch prediction reads its input from Cloud Storage or BigQuery, not from inline "
                    + "requests or the Files API; use 'run' instead"
            case "interactions":
                "Vertex AI serves the Interactions API only for agents provisioned in your project, not for "
                    + "models; 'set api generate-content' asks the same on Vertex AI, or 'set backend developer'"
            case "research":
                "Deep Research runs on the Gemini Developer API; Vertex AI serves the Interactions API only for "
                    + "agents provisioned in your project ('set backend developer' to start one)"
            case "agent":
                "research jobs live on the Gemini Developer API; 'set backend developer' to reach them "
                    + "('agents' lists the journal on either backend)"
            default: "\(command) is not available on Vertex AI"
            }
        return "\(command): \(why)"
    }
}
