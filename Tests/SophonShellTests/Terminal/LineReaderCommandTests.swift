import Testing

@testable import SophonShell

/// A line source that replays scripted results and records the prompts it was shown.
final class ScriptedLineSource: LineSource {
    private var inputs: [LineInput]
    private(set) var prompts: [String] = []

    init(_ inputs: [LineInput]) { self.inputs = inputs }

    func readLine(prompt: String) -> LineInput {
        prompts.append(prompt)
        return inputs.isEmpty ? .endOfInput : inputs.removeFirst()
    }

    func readSecret(prompt: String) -> LineInput { readLine(prompt: prompt) }
}

@Suite struct LineReaderCommandTests {
    /// A stand-in for the parser: a block is open while the text holds an odd number of `"""`.
    static func blockIsOpen(_ text: String) -> Bool {
        text.components(separatedBy: "\"\"\"").count % 2 == 0
    }

    static func readAll(_ inputs: [LineInput]) -> (results: [CommandReader.Input], prompts: [String]) {
        let source = ScriptedLineSource(inputs)
        let reader = CommandReader(source: source, needsMoreLines: blockIsOpen)
        var results: [CommandReader.Input] = []
        while results.last != .endOfInput, results.count < 20 { results.append(reader.read()) }
        return (results, source.prompts)
    }

    @Test func oneLineIsOneCommand() {
        let (results, prompts) = Self.readAll([.line("echo hi"), .line("let x = 1")])
        #expect(results == [.command("echo hi"), .command("let x = 1"), .endOfInput])
        #expect(prompts == ["sophon> ", "sophon> ", "sophon> "])
    }

    @Test func anOpenBlockContinuesWithTheContinuationPrompt() {
        let (results, prompts) = Self.readAll([
            .line("ask \"\"\""), .line("two"), .line("\"\"\""), .line("echo x"),
        ])
        #expect(results == [.command("ask \"\"\"\ntwo\n\"\"\""), .command("echo x"), .endOfInput])
        #expect(prompts == ["sophon> ", "   ...> ", "   ...> ", "sophon> ", "sophon> "])
    }

    @Test func ctrlCDropsThePendingBlock() {
        let (results, prompts) = Self.readAll([
            .line("ask \"\"\""), .line("two"), .interrupted, .line("echo x"),
        ])
        #expect(results == [.interrupted, .command("echo x"), .endOfInput])
        #expect(prompts == ["sophon> ", "   ...> ", "   ...> ", "sophon> ", "sophon> "])
    }

    @Test func endOfInputInsideABlockHandsTheIncompleteTextToTheParser() {
        let (results, _) = Self.readAll([.line("ask \"\"\""), .line("two"), .endOfInput])
        #expect(results == [.command("ask \"\"\"\ntwo"), .endOfInput])
    }

    @Test func aRecalledMultiLineEntryIsOneCommand() {
        let (results, prompts) = Self.readAll([.line("ask \"\"\"\ntwo\n\"\"\"")])
        #expect(results == [.command("ask \"\"\"\ntwo\n\"\"\""), .endOfInput])
        #expect(prompts == ["sophon> ", "sophon> "])
    }
}
