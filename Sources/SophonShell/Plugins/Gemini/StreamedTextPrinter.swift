import SophonCore

/// The one way a streamed answer reaches stdout, piece by piece (`ask` and `chat`, over
/// generateContent or the Interactions API): the API key masked even when it is split across
/// two pieces, and the line ended when the stream ends or fails, so an error after some text
/// keeps what was printed.
struct StreamedTextPrinter {
    /// Whether pieces are printed as they come; otherwise (`--json`) the answer is printed whole
    /// by the result printer and this prints nothing.
    let printsChunks: Bool
    private let io: ShellIO
    private var redactor: SecretStreamRedactor
    /// Whether any text was printed.
    private(set) var printedAny = false
    private var endsWithNewline = true

    /// A printer to `context`'s stdout masking the session's key.
    init(printsChunks: Bool, context: CommandContext, services: GeminiServices) {
        self.printsChunks = printsChunks
        io = context.io
        redactor = SecretStreamRedactor(secrets: [services.apiKeyForMasking].compactMap { $0 })
    }

    /// Prints `piece`, holding back a tail that may be the start of the key.
    mutating func print(_ piece: String) {
        show(redactor.feed(piece))
    }

    /// Prints what was held back and ends the line; call it when the stream ends or fails.
    mutating func finish() {
        show(redactor.finish())
        // After an echoed `^C` the interruption's report starts the line itself.
        if printedAny, !endsWithNewline, !InterruptSignal.leftAnEchoedControlCharacter {
            io.stdout.write("\n")
        }
    }

    private mutating func show(_ text: String) {
        guard printsChunks, !text.isEmpty else { return }
        io.stdout.write(text)
        printedAny = true
        endsWithNewline = text.hasSuffix("\n")
    }
}
