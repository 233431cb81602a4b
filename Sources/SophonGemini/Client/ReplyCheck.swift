/// Checks a complete reply before it is used (never retried: the same prompt gives the same
/// outcome).
enum ReplyCheck {
    /// - Throws: ``GeminiError/promptBlocked(reason:message:)`` for a blocked prompt,
    ///   ``GeminiError/contentBlocked(reason:partialText:)`` for a SAFETY/RECITATION/... stop,
    ///   ``GeminiError/truncated(partialText:partialValue:)`` for MAX_TOKENS with no answer text,
    ///   ``GeminiError/stoppedWithoutContent(reason:finishMessage:)`` for no usable content
    ///   and a finish reason other than STOP/MAX_TOKENS,
    ///   ``GeminiError/emptyResponse`` for no candidates, no parts or signature-only parts.
    static func check(_ response: GenerateContentResponse) throws {
        guard let candidate = response.candidates?.first else {
            if let feedback = response.promptFeedback, feedback.blockReason != nil {
                throw GeminiError.promptBlocked(
                    reason: feedback.blockReason, message: feedback.blockReasonMessage)
            }
            throw GeminiError.emptyResponse
        }
        let text = candidate.content?.answerText ?? ""
        if let reason = candidate.finishReason, reason.isToolFailure {
            throw GeminiError.toolCallFailed(reason: reason, finishMessage: candidate.finishMessage)
        }
        if let reason = candidate.finishReason, reason.isBlocked {
            throw GeminiError.contentBlocked(reason: reason, partialText: text)
        }
        let parts = candidate.content?.parts ?? []
        let useful = parts.contains { part in
            part.thought != true && !part.isSignatureOnly && (!(part.text ?? "").isEmpty || part.text == nil)
        }
        guard useful else {
            if candidate.finishReason == .maxTokens {
                throw GeminiError.truncated(partialText: text, partialValue: nil)
            }
            if let reason = candidate.finishReason, reason != .stop {
                throw GeminiError.stoppedWithoutContent(
                    reason: reason, finishMessage: candidate.finishMessage)
            }
            throw GeminiError.emptyResponse
        }
    }
}
