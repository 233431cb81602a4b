import SophonCore

/// Splits a ``ShellSource`` into commands and parses each (docs/language.md).
///
/// One command per line; quotes, `"""` blocks and trailing backslashes may carry a command over
/// several physical lines. Blank and comment-only lines make no command. A syntax error fails
/// only its own command: the parser reads on to that command's end and continues after it.
struct ShellParser: Sendable {
    /// Which commands take raw arguments, and the assignment command's name.
    let grammar: ShellGrammar
    /// Strict JSON parsing (`JSONValue(parsing:)`), `nil` for text that is not valid JSON;
    /// used for `let` rule 1.
    let parseJSON: @Sendable (String) -> JSONValue?

    /// Creates a parser.
    /// - Parameters:
    ///   - grammar: the prompt-like commands and their options.
    ///   - parseJSON: strict JSON parsing; ``strictJSON`` unless a test injects another.
    init(
        grammar: ShellGrammar = .standard,
        parseJSON: @escaping @Sendable (String) -> JSONValue? = ShellParser.strictJSON
    ) {
        self.grammar = grammar
        self.parseJSON = parseJSON
    }

    /// SophonCore's strict RFC 8259 parser (`JSONValue(parsing:)`), `nil` on any error.
    static let strictJSON: @Sendable (String) -> JSONValue? = { try? JSONValue(parsing: $0) }

    /// Every command of `source`, in order, each parsed or with its first syntax error.
    func parse(_ source: ShellSource) -> [ParsedCommand] {
        var lexer = ShellLexer(source: source)
        var commands: [ParsedCommand] = []
        var coveredLines = Set<Int>()
        while true {
            lexer.clearError()
            lexer.skipBlanks()
            lexer.skipComment()
            if lexer.isAtEnd {
                // A continuation that ended the input on an otherwise empty line.
                if let error = lexer.firstError {
                    commands.append(ParsedCommand(line: error.line, text: "", result: .failure(error)))
                }
                break
            }
            if lexer.peek() == "\n" {
                lexer.position += 1
                continue
            }
            let start = lexer.position
            let command = parseCommand(&lexer)
            lexer.skipBlanks()
            lexer.skipComment()
            while !lexer.isAtLineEnd {
                // Defensive: whatever a rule left unread belongs to this command.
                lexer.position += 1
            }
            var text = source.string(from: start, to: lexer.position).unicodeScalars[...]
            while let last = text.last, ShellLexer.isBlank(last) { text.removeLast() }
            let lines = source.line(containing: start)...source.line(containing: lexer.position)
            coveredLines.formUnion(lines)
            let result: Result<ShellCommand, ShellSyntaxError>
            if let error = invalidUTF8Error(in: lines, of: source) {
                result = .failure(error)
            } else if var error = lexer.firstError {
                error.commandLine = source.line(containing: start)  // LINE: the command's first line.
                result = .failure(error)
            } else {
                result = .success(command)
            }
            commands.append(
                ParsedCommand(
                    line: source.line(containing: start), text: String(String.UnicodeScalarView(text)),
                    result: result))
            if !lexer.isAtEnd { lexer.position += 1 }
        }
        // Invalid lines outside any command (comments, blank-looking lines) still fail.
        for line in source.invalidLines.keys.sorted() where !coveredLines.contains(line) {
            guard let error = invalidUTF8Error(in: line...line, of: source) else { continue }
            let failure = ParsedCommand(line: line, text: source.lineText(line), result: .failure(error))
            let index = commands.firstIndex { $0.line > line } ?? commands.endIndex
            commands.insert(failure, at: index)
        }
        return commands
    }

    /// The error for the first line of `lines` that was not valid UTF-8, if any.
    private func invalidUTF8Error(in lines: ClosedRange<Int>, of source: ShellSource) -> ShellSyntaxError? {
        guard !source.invalidLines.isEmpty,
            let line = lines.first(where: { source.invalidLines[$0] != nil }),
            let offset = source.invalidLines[line]
        else { return nil }
        return source.error("line \(line) is not valid UTF-8", at: offset)
    }

    /// Whether `text` (what the REPL has collected, lines joined by `\n`) is complete.
    /// - Returns: ``ShellInputStatus/needsContinuation`` when it ends inside a quote, a `"""`
    ///   block or after a trailing backslash; ``ShellInputStatus/complete`` otherwise, syntax
    ///   errors included (running it reports them).
    func inputStatus(of text: String) -> ShellInputStatus {
        ShellInputStatus(of: parse(ShellSource(name: "<input>", text: text)))
    }

    /// Parses one command; the lexer is at its first word.
    private func parseCommand(_ lexer: inout ShellLexer) -> ShellCommand {
        guard let (first, _) = lexer.nextWord() else { return ShellCommand(words: []) }
        let name = first.isQuoted ? nil : first.literalText
        if let name, name == grammar.assignmentCommand {
            return parseAssignment(after: first, &lexer)
        }
        if let name, let spec = grammar.rawCommands[name] {
            return parseRaw(after: first, spec: spec, &lexer)
        }
        return ShellCommand(words: [first] + lexer.remainingWords())
    }

    /// `NAME [--opt [VALUE]]... ARGUMENT`, as ``RawArgumentSpec`` describes.
    private func parseRaw(after first: ShellWord, spec: RawArgumentSpec, _ lexer: inout ShellLexer)
        -> ShellCommand
    {
        var words = [first]
        while true {
            lexer.skipBlanks()
            guard !lexer.isAtLineEnd else { return ShellCommand(words: words) }
            if lexer.peek() == "-", lexer.peek(1) == "-" {
                let (option, _) = lexer.nextWord() ?? (ShellWord([]), lexer.position)
                let text = option.literalText ?? ""
                if text == "--", !option.isQuoted { break }
                words.append(option)
                if spec.valueOptions.contains(text) {
                    lexer.skipBlanks()
                    guard let (value, _) = lexer.nextWord() else {
                        lexer.fail("option \(text) needs a value", at: lexer.position)
                        return ShellCommand(words: words)
                    }
                    words.append(value)
                }
                continue
            }
            var end = lexer.position
            while end < lexer.scalars.count, !ShellLexer.isBlank(lexer.scalars[end]),
                lexer.scalars[end] != "\n"
            {
                end += 1
            }
            let piece = lexer.source.string(from: lexer.position, to: end)
            if spec.selectsWords(piece) {
                return ShellCommand(words: words + lexer.remainingWords())
            }
            if spec.leadingName, RawArgumentSpec.isName(piece) {
                var after = end
                while after < lexer.scalars.count, ShellLexer.isBlank(lexer.scalars[after]) { after += 1 }
                if after < lexer.scalars.count, lexer.scalars[after] != "\n", lexer.scalars[after] != "#",
                    let (name, _) = lexer.nextWord()
                {
                    words.append(name)
                }
            }
            break
        }
        lexer.skipBlanks()
        let start = lexer.position
        var command = ShellCommand(words: words, rawArgument: lexer.lexRawArgument())
        if let argument = command.rawArgument {
            let source = lexer.source
            let first = source.line(containing: start)
            let last = source.line(containing: max(start, lexer.position - 1))
            command.rawArgumentOrigin = ArgumentOrigin(
                sourceName: source.name, line: first, column: source.column(of: start),
                lines: (first...max(first, last)).map(source.lineText), isBlock: argument.isBlock)
        }
        return command
    }

    /// `let NAME = REST` by the rules of ``LetAssignment``.
    private func parseAssignment(after first: ShellWord, _ lexer: inout ShellLexer) -> ShellCommand {
        let usage = "usage: let NAME = VALUE"
        guard let (nameWord, nameStart) = lexer.nextWord() else {
            lexer.fail("missing variable name; \(usage)", at: lexer.position)
            return ShellCommand(words: [first])
        }
        guard let name = nameWord.literalText, !nameWord.isQuoted, ShellLexer.isVariableName(name) else {
            let shown = nameWord.description
            let hint = shown.contains("=") ? "put blanks around '='; " : ""
            lexer.fail("invalid variable name '\(shown)'; \(hint)\(usage)", at: nameStart)
            return ShellCommand(words: [first, nameWord] + lexer.remainingWords())
        }
        let equalsWord = lexer.nextWord()
        guard let (equals, _) = equalsWord, equals.literalText == "=", !equals.isQuoted else {
            lexer.fail(
                "expected '=' after the variable name; \(usage)", at: equalsWord?.start ?? lexer.position)
            return ShellCommand(words: [first, nameWord] + lexer.remainingWords())
        }
        let words = [first, nameWord, equals]
        while ShellLexer.isBlank(lexer.peek()) { lexer.position += 1 }
        // Rule 1: the rest of the physical line, as typed, is JSON.
        let restStart = lexer.position
        var lineEnd = restStart
        while lineEnd < lexer.scalars.count, lexer.scalars[lineEnd] != "\n" { lineEnd += 1 }
        let rest = LetAssignment.restWithoutComment(lexer.source.string(from: restStart, to: lineEnd))
        if !rest.isEmpty, let json = parseJSON(rest) {
            lexer.position = lineEnd
            return ShellCommand(words: words, assignment: LetAssignment(name: name, value: .json(json)))
        }
        // Rule 4: REST that starts like JSON but is not valid JSON is an error where it breaks,
        // never mangled words (`{"k": 1,}` would otherwise be stored as `{k: 1,}`).
        if rest.hasPrefix("{") || rest.hasPrefix("[") {
            var column = rest.unicodeScalars.count
            var reason = "invalid JSON"
            do {
                _ = try JSONValue(parsing: rest)
            } catch {
                (column, reason) = (error.column, error.message)
            }
            lexer.fail(
                "the value is not valid JSON: \(reason); to store it as text, quote it: let \(name) = '...'",
                at: restStart + max(0, column - 1))
            lexer.position = lineEnd
            return ShellCommand(words: words)
        }
        let valueWords = lexer.remainingWords()
        guard !valueWords.isEmpty else {
            lexer.fail("missing value after '='; \(usage)", at: restStart)
            return ShellCommand(words: words)
        }
        let value: LetAssignment.Value =
            valueWords.count == 1 && valueWords[0].isBlock ? .block(valueWords[0]) : .words(valueWords)
        return ShellCommand(words: words, assignment: LetAssignment(name: name, value: value))
    }
}

extension ShellParser {
    /// The command of one-command mode (`sophon COMMAND ARGS...`, docs/language.md): the arguments
    /// come from the calling shell, so each is one literal word and nothing expands.
    ///
    /// Prompt-like commands split off their leading options as the parser does and join the
    /// rest with one space into the raw argument (`sophon ask What is it` asks "What is it").
    /// `let NAME = REST...` applies rule 1 (REST joined is JSON) or stores the joined text.
    ///
    /// - Parameter arguments: the command name, then its arguments.
    /// - Returns: the command, or `nil` when `arguments` is empty.
    func command(fromArguments arguments: [String]) -> ShellCommand? {
        guard let name = arguments.first else { return nil }
        let words = arguments.map { ShellWord.literal($0) }
        if name == grammar.assignmentCommand, arguments.count >= 4, arguments[2] == "=",
            ShellLexer.isVariableName(arguments[1])
        {
            let rest = arguments[3...]
            let value: LetAssignment.Value =
                parseJSON(rest.joined(separator: " ")).map { .json($0) } ?? .words(Array(words[3...]))
            return ShellCommand(
                words: Array(words.prefix(3)), assignment: LetAssignment(name: arguments[1], value: value))
        }
        guard let spec = grammar.rawCommands[name] else { return ShellCommand(words: words) }
        var index = 1
        var leading = [words[0]]
        while index < arguments.count, arguments[index].hasPrefix("--") {
            let option = arguments[index]
            index += 1
            if option == "--" { break }
            leading.append(words[index - 1])
            if spec.valueOptions.contains(option), index < arguments.count {
                leading.append(words[index])
                index += 1
            }
        }
        guard index < arguments.count else { return ShellCommand(words: leading) }
        if spec.selectsWords(arguments[index]) {
            return ShellCommand(words: leading + words[index...])
        }
        if spec.leadingName, RawArgumentSpec.isName(arguments[index]), index + 1 < arguments.count {
            leading.append(words[index])
            index += 1
        }
        let raw = arguments[index...].joined(separator: " ")
        return ShellCommand(words: leading, rawArgument: .literal(raw))
    }
}

/// One command as parsed, before expansion.
struct ShellCommand: Sendable, Hashable {
    /// The words: the command name first. For a prompt-like command: the name, its options
    /// and option values (or every word when the spec selected ordinary words). For `let`:
    /// `let`, `NAME`, `=`.
    var words: [ShellWord]
    /// The raw argument of a prompt-like command; `nil` when absent or not prompt-like.
    var rawArgument: ShellWord?
    /// The assignment of a `let` command; `nil` for other commands.
    var assignment: LetAssignment?
    /// Where ``rawArgument`` starts in the source, for a caret under an error in it.
    var rawArgumentOrigin: ArgumentOrigin?

    /// Creates a command.
    init(words: [ShellWord], rawArgument: ShellWord? = nil, assignment: LetAssignment? = nil) {
        self.words = words
        self.rawArgument = rawArgument
        self.assignment = assignment
    }

    /// The command name: the first word's text when it has no expansion, else `nil`.
    var name: String? { words.first?.literalText }

    /// The words after the name.
    var arguments: ArraySlice<ShellWord> { words.dropFirst() }
}

/// One command of a source: where it is, how it was typed, and the command or its parse error.
struct ParsedCommand: Sendable, Equatable {
    /// The first physical line of the command (1-based): the line of runtime errors.
    var line: Int
    /// The command as typed, from its first word to the end of its last physical line,
    /// trailing blanks removed (comments and continuation lines included). For `save`,
    /// `--echo` and `--json`'s `"command"`.
    var text: String
    /// The command, or the first syntax error in it.
    var result: Result<ShellCommand, ShellSyntaxError>
}

/// Whether typed input is a complete command or needs more lines.
enum ShellInputStatus: Sendable, Equatable {
    /// Ready to run (possibly with a syntax error to report).
    case complete
    /// The input ends inside a quote, a `"""` block or after a trailing backslash: the REPL
    /// shows its continuation prompt `   ...> ` and appends the next line.
    case needsContinuation
}

extension ShellInputStatus {
    /// The status of input whose commands ``ShellParser/parse(_:)`` gave: it needs more lines
    /// when its last command ended inside an open construct (the one rule for the REPL's
    /// continuation prompt and for a script read from a pipe as it arrives).
    init(of commands: [ParsedCommand]) {
        guard let last = commands.last, case .failure(let error) = last.result, error.isIncomplete else {
            self = .complete
            return
        }
        self = .needsContinuation
    }
}
