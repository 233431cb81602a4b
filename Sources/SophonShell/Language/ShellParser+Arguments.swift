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
