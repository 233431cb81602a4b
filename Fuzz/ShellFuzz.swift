import SophonCore

/// Fuzz target `shell`: a script's bytes as the shell reads them — `ShellSource` (UTF-8 checked
/// line by line, BOM, CRLF), the lexer and `ShellParser`, the error rendering with its caret
/// line, then for each parsed command what the runtime does before running it: expansion of
/// every word against a few variables, `let` assignments and `expect` expressions (`matches`
/// excepted: a regular expression's own cost is the user's). Also the REPL's continuation
/// check on the whole text.
///
/// Compiled into one module with Sources/SophonShell/Language (internal types of the
/// executable target).
///
/// Invariants: every command and error names a line of the input; error columns start at 1.
enum ShellFuzz {
    static let variables: [String: JSONValue] = [
        "last": .object([
            JSONMember("title", .string("Dune")), JSONMember("year", .integer(1965)),
            JSONMember("tags", .array([.string("a"), .string("b")])),
            JSONMember("nested", .object([JSONMember("x", .array([.null, .bool(true)]))])),
        ]),
        "a": .array([.integer(1), .string("two"), .array([])]),
        "s": .string("text with $dollar"),
        "n": .integer(42),
    ]

    static func run(_ bytes: [UInt8]) {
        let source = ShellSource(name: "fuzz.sophon", bytes: bytes)
        let lines = source.lineStarts.count
        let parser = ShellParser()
        let expander = ShellExpander(lookup: { variables[$0] })
        for command in parser.parse(source) {
            fuzzRequire(
                command.line >= 1 && command.line <= lines, "command line \(command.line) of \(lines)")
            switch command.result {
            case .failure(let error):
                fuzzRequire(
                    error.line >= 1 && error.line <= lines && error.column >= 1,
                    "error at \(error.line):\(error.column) of \(lines) lines")
                _ = error.rendered(withLocation: true)
                _ = error.rendered(withLocation: false)
            case .success(let parsed):
                run(parsed, expander: expander)
            }
        }
        _ = parser.inputStatus(of: source.text)
    }

    static func run(_ command: ShellCommand, expander: ShellExpander) {
        _ = command.name
        for word in command.words {
            _ = word.description
            expand { () throws(ShellExpansionError) in _ = try expander.jsonValue(of: word) }
        }
        if let raw = command.rawArgument {
            expand { () throws(ShellExpansionError) in _ = try expander.text(of: raw) }
        }
        if let assignment = command.assignment {
            expand { () throws(ShellExpansionError) in
                _ = try assignment.evaluate(expander: expander, parseJSON: { ShellParser.strictJSON($0) })
            }
        }
        guard command.name == "expect" else { return }
        do throws(ExpectError) {
            let expression = try ExpectExpression.parse(command.arguments)
            if case .comparison(_, .matches, _) = expression { return }
            _ = try ExpectEvaluator.evaluate(expression, expander: expander) { .passed }
        } catch {
            _ = error.message
        }
    }

    static func expand(_ body: () throws(ShellExpansionError) -> Void) {
        do throws(ShellExpansionError) {
            try body()
        } catch {
            _ = error.message
        }
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ShellFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
