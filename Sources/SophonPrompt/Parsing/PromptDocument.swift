import SophonCore

/// A parsed prompt file: its frontmatter (YAML between `---` lines) and its Handlebars body
/// (Dotprompt's `parseDocument`).
public struct PromptDocument: Sendable, Hashable {
    /// The keys of the frontmatter Dotprompt keeps as metadata; other keys with a dot
    /// (`a.b.c: v`) go to `ext` (`{"a.b": {"c": v}}`), the rest only to `raw`.
    public static let reservedKeys: Set<String> = [
        "config", "description", "ext", "input", "model", "name", "output", "raw", "toolDefs", "tools",
        "variant",
        "version",
    ]

    /// The file named in errors.
    public var file: String
    /// The frontmatter as parsed; `nil` when the file has none.
    public var raw: JSONValue?
    /// The reserved keys of the frontmatter, then `ext`, in the order Dotprompt prints them.
    public var metadata: [JSONMember]
    /// The template text (after the frontmatter).
    public var template: String
    /// Lines before the template in the file, so template errors name file lines.
    public var templateLineOffset: Int
    /// Columns before the template on its first line in the file: the blanks the trimmed body
    /// lost there (`  {{shout}}` after the frontmatter is at column 3), so errors on that line
    /// name file columns.
    public var templateColumnOffset = 0
    /// The frontmatter's lines (for error locations); empty without frontmatter.
    public var frontmatterLines: [String] = []
    /// Lines before the frontmatter's first line (the `---` line, and any header before it).
    public var frontmatterLineOffset = 1
    /// Where each frontmatter value starts in the file, by path (`["config", "temperature"]`).
    public var locations: [[String]: PromptLocation] = [:]

    /// Parses `source` (read byte for byte; CRLF kept).
    /// - Throws: ``PromptError`` (`.yaml`) for a frontmatter YAML error, at its line and column
    ///   in the file; (`.unclosedFrontmatter`) for a first `---` line with no closing `---` line,
    ///   at 1:1.
    public init(parsing source: String, file: String) throws(PromptError) {
        self.file = file
        guard let split = try Self.frontmatter(source, file: file) else {
            raw = nil
            metadata = [JSONMember("ext", .object([]))]
            template = source
            templateLineOffset = 0
            return
        }
        let (value, locations) = try YAMLReader.readWithLocations(
            split.yaml, file: file, lineOffset: split.yamlLine - 1)
        frontmatterLineOffset = split.yamlLine - 1
        raw = value
        self.locations = locations
        frontmatterLines = split.yaml.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        var members: [JSONMember] = []
        var ext: [JSONMember] = []
        if case .object(let fields) = value {
            for field in fields {
                if Self.reservedKeys.contains(field.key) {
                    members.append(field)
                } else if let dot = field.key.lastIndex(of: ".") {
                    let space = String(field.key[..<dot])
                    let name = String(field.key[field.key.index(after: dot)...])
                    if let index = ext.firstIndex(where: { $0.key == space }),
                        case .object(var inner) = ext[index].value
                    {
                        inner.append(JSONMember(name, field.value))
                        ext[index].value = .object(inner)
                    } else {
                        ext.append(JSONMember(space, .object([JSONMember(name, field.value)])))
                    }
                }
            }
        }
        members.removeAll { $0.key == "ext" }
        members.append(JSONMember("ext", .object(ext)))
        members.append(JSONMember("raw", value))
        metadata = members
        template = split.body
        templateLineOffset = split.bodyLine - 1
        templateColumnOffset = split.bodyColumn - 1
    }

    /// The plain scalar at `path` as written in the frontmatter (`.nan`, `1e2`, `.inf`, which
    /// the core schema reads as numbers or `null`): from where its value starts to the end of
    /// its line, a flow indicator (`,`, `]`, `}`) or a comment, trimmed; `nil` when the path has
    /// no place in the file.
    public func written(at path: [String]) -> String? {
        guard let place = locations[path] else { return nil }
        let index = place.line - 1 - frontmatterLineOffset
        guard frontmatterLines.indices.contains(index) else { return nil }
        let scalars = frontmatterLines[index].unicodeScalars
        guard place.column - 1 <= scalars.count else { return nil }
        var text = ""
        for scalar in scalars.dropFirst(place.column - 1) {
            if ",]}".unicodeScalars.contains(scalar) { break }
            if scalar == "#", text.last?.isWhitespace == true { break }
            text.unicodeScalars.append(scalar)
        }
        return text.trimmingWhitespace()
    }

    /// The frontmatter and body: the file starts with `---` (spaces allowed) and a line break,
    /// and the YAML runs to the next line that is `---` (the last line of the file may be it:
    /// an empty body). As Dotprompt's parser, blank lines and `#` lines (a license header) may
    /// come before the first `---`. The body is trimmed of whitespace at both ends, as Dotprompt
    /// does; `yamlLine` and `bodyLine` are their first lines in the file, `bodyColumn` the column
    /// where the body starts on its line. `nil`: the file has no frontmatter.
    /// - Throws: ``PromptError`` (`.unclosedFrontmatter`, at 1:1) when the first line is `---`
    ///   and no later line closes it: Dotprompt would send the whole file, YAML included, as the
    ///   prompt text. (After a header, an unclosed `---` is text, as in Dotprompt.)
    static func frontmatter(_ source: String, file: String) throws(PromptError) -> (
        yaml: String, body: String, yamlLine: Int, bodyLine: Int, bodyColumn: Int
    )? {
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let header = lines.prefix { line in line.hasPrefix("#") || line.allSatisfy { $0 == " " || $0 == "\t" }
        }
        let open = header.count
        guard open < lines.count, lines[open].trimmingWhitespace() == "---" else { return nil }
        for index in (open + 1)..<max(open + 1, lines.count) where lines[index].trimmingWhitespace() == "---"
        {
            let yaml = lines[(open + 1)..<index].joined(separator: "\n")
            guard index < lines.count - 1 else { return (yaml, "", open + 2, index + 1, 1) }
            let rest = source[lines[index + 1].startIndex...]
            let leading = rest.prefix { $0.isWhitespace }
            let lastLine =
                leading.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).last ?? ""
            return (
                yaml, rest.trimmingWhitespace(), open + 2, index + 2 + leading.filter(\.isNewline).count,
                lastLine.unicodeScalars.count + 1
            )
        }
        guard open == 0 else { return nil }
        throw PromptError(
            .unclosedFrontmatter,
            "the frontmatter opened by '---' on line 1 is not closed: no later line is '---'", file: file,
            line: 1, column: 1)
    }
}

/// A place in a prompt file: 1-based line and column (of the file, not of the frontmatter); the
/// column counts Unicode scalars, as libyaml's marks do. The one location type of SophonCore.
public typealias PromptLocation = TextLocation
