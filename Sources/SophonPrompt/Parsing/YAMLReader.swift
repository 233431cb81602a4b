import CYAML
import SophonCore

/// Reads YAML text into a `JSONValue` (SophonCore) with the system libyaml (`libyaml-dev`): mappings become
/// objects in source order, sequences arrays, and plain scalars are typed as YAML 1.2's core
/// schema says (`null`, `~`, `true`, `false`, integers in base 8, 10 and 16, floats, `.inf`,
/// `.nan`), as Dotprompt's JS `yaml` package reads them; quoted scalars stay strings.
public enum YAMLReader {
    /// The value of the first document in `text`; `.null` when there is none.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: named in errors.
    ///   - lineOffset: added to libyaml's line numbers, so errors name the line in the whole
    ///     file (the frontmatter starts after its `---` line).
    /// - Throws: ``PromptError`` (`.yaml`) at the line and column libyaml reports.
    public static func read(_ text: String, file: String, lineOffset: Int = 0) throws(PromptError)
        -> JSONValue
    {
        try readWithLocations(text, file: file, lineOffset: lineOffset).value
    }

    /// The value of the first document in `text`, and where each of its values starts: keyed
    /// by the path of member names and array indexes (`["config", "temperature"]`,
    /// `["tools", "0"]`; `[]` is the document), 1-based line (in the whole file) and column.
    /// - Parameters: as ``read(_:file:lineOffset:)``.
    /// - Throws: ``PromptError`` (`.yaml`) at the line and column libyaml reports.
    public static func readWithLocations(_ text: String, file: String, lineOffset: Int = 0)
        throws(PromptError) -> (value: JSONValue, locations: [[String]: PromptLocation])
    {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw PromptError(.yaml, "cannot start the YAML parser", file: file, line: 1, column: 1)
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer {
            buffer throws(PromptError) -> (value: JSONValue, locations: [[String]: PromptLocation]) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var reader = EventReader(parser: parser, file: file, lineOffset: lineOffset)
            defer { parser = reader.parser }
            return (try reader.document(), reader.locations)
        }
    }

    /// Pulls libyaml events and builds values.
    private struct EventReader {
        var parser: yaml_parser_t
        let file: String
        let lineOffset: Int
        var anchors: [String: JSONValue] = [:]
        /// Where each value read so far starts, by path.
        var locations: [[String]: PromptLocation] = [:]
        /// The path of the value being read.
        var path: [String] = []
        /// How many values each anchor's value holds, itself included.
        var anchorSizes: [String: Int] = [:]
        /// How many values the document holds so far, aliases counted expanded.
        var produced = 0
        /// The most values a document may expand to: aliases of aliases grow exponentially (a
        /// "billion laughs" of ten lines would fill the memory when the value is used).
        static let maximumValues = 1_000_000

        mutating func next() throws(PromptError) -> yaml_event_t {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                let mark = parser.problem_mark
                let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
                throw PromptError(
                    .yaml, "YAML: " + problem, file: file, line: Int(mark.line) + 1 + lineOffset,
                    column: Int(mark.column) + 1)
            }
            return event
        }

        mutating func document() throws(PromptError) -> JSONValue {
            var value = JSONValue.null
            while true {
                var event = try next()
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT: return value
                case YAML_DOCUMENT_START_EVENT:
                    var first = try next()
                    if first.type != YAML_DOCUMENT_END_EVENT { value = try node(&first) }
                    yaml_event_delete(&first)
                    return value
                default: continue
                }
            }
        }

        mutating func node(_ event: inout yaml_event_t) throws(PromptError) -> JSONValue {
            if locations[path] == nil {
                locations[path] = PromptLocation(
                    line: Int(event.start_mark.line) + 1 + lineOffset,
                    column: Int(event.start_mark.column) + 1)
            }
            switch event.type {
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                produced += anchorSizes[name] ?? 1
                guard produced <= Self.maximumValues else {
                    let mark = event.start_mark
                    throw PromptError(
                        .yaml,
                        "YAML: the aliases expand past \(Self.maximumValues) values (an alias of aliases "
                            + "repeated, a \"billion laughs\")",
                        file: file, line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1)
                }
                return anchors[name] ?? .null
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let value =
                    scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
                    ? Self.typed(text) : .string(text)
                produced += 1
                if let anchor = scalar.anchor {
                    anchors[String(cString: anchor)] = value
                    anchorSizes[String(cString: anchor)] = 1
                }
                return value
            case YAML_SEQUENCE_START_EVENT:
                let anchor = event.data.sequence_start.anchor.map { String(cString: $0) }
                let before = produced
                produced += 1
                let items = try nodes(until: YAML_SEQUENCE_END_EVENT, mapping: false)
                if let anchor {
                    anchors[anchor] = .array(items)
                    anchorSizes[anchor] = produced - before
                }
                return .array(items)
            case YAML_MAPPING_START_EVENT:
                let anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
                let before = produced
                produced += 1
                let nodes = try nodes(until: YAML_MAPPING_END_EVENT, mapping: true)
                var members: [JSONMember] = []
                for pair in stride(from: 0, to: nodes.count - 1, by: 2) {
                    let name = nodes[pair].stringValue ?? nodes[pair].compactText
                    members.removeAll { $0.key == name }
                    members.append(JSONMember(name, nodes[pair + 1]))
                }
                if let anchor {
                    anchors[anchor] = .object(members)
                    anchorSizes[anchor] = produced - before
                }
                return .object(members)
            default:
                return .null
            }
        }

        /// The nodes up to the event `end` (a sequence's items; a mapping's keys and values in
        /// turn), each value located under its index or key.
        mutating func nodes(until end: yaml_event_type_t, mapping: Bool) throws(PromptError) -> [JSONValue] {
            var nodes: [JSONValue] = []
            let parent = path
            defer { path = parent }
            while true {
                var child = try next()
                defer { yaml_event_delete(&child) }
                if child.type == end { return nodes }
                if !mapping {
                    path = parent + [String(nodes.count)]
                } else if nodes.count % 2 == 1 {
                    path = parent + [nodes[nodes.count - 1].stringValue ?? nodes[nodes.count - 1].compactText]
                } else {
                    path = parent + ["\u{0}key"]
                }
                nodes.append(try node(&child))
            }
        }

        /// A plain scalar typed by the YAML 1.2 core schema (§10.3.2), as Dotprompt's JS `yaml`
        /// package reads it: `null`, `~` and the empty scalar; `true` and `false` (three
        /// spellings each); a number (``coreNumber(_:)``); else a string.
        static func typed(_ text: String) -> JSONValue {
            switch text {
            case "", "~", "null", "Null", "NULL": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: return coreNumber(text) ?? .string(text)
            }
        }

        /// `text` as a JSON number when it is one of the core schema's numbers, else `nil`:
        /// - `[-+]?[0-9]+` and `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, kept as
        ///   written but in JSON's syntax (`+` dropped, leading zeros dropped, a `0` before a bare
        ///   `.`, a `.` without digits dropped): `007` is `7`, `.5` is `0.5`, `-.5` is `-0.5`,
        ///   `1.` is `1`; `1e400` stays `1e400`;
        /// - `0o[0-7]+` and `0x[0-9a-fA-F]+` by their value: `0o17` is `15`, `0x10` is `16`;
        /// - `[-+]?\.(inf|Inf|INF)` as `1e999` / `-1e999` (JSON has no infinity; read as a
        ///   `Double`, the literal is infinite);
        /// - `\.(nan|NaN|NAN)` as `null` (what JSON has for NaN, as `JSON.stringify` prints it).
        static func coreNumber(_ text: String) -> JSONValue? {
            if [".nan", ".NaN", ".NAN"].contains(text) { return .null }
            let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            let negative = text.hasPrefix("-")
            if [".inf", ".Inf", ".INF"].contains(unsigned) {
                return infinity(negative: negative)
            }
            if unsigned.count == text.count, text.count > 2 {
                let digits = text.dropFirst(2)
                if text.hasPrefix("0o") { return integer(digits, radix: 8) }
                if text.hasPrefix("0x") { return integer(digits, radix: 16) }
            }
            return decimal(unsigned, negative: negative)
        }

        /// Digits in `radix` (at least one, nothing else) as a JSON number: exact while they fit
        /// `Int`, else the nearest `Double` (as JavaScript's `parseInt` reads them).
        static func integer(_ digits: Substring, radix: Int) -> JSONValue? {
            let inRadix = { (digit: Character) in digit.isASCII && (digit.hexDigitValue ?? radix) < radix }
            guard !digits.isEmpty, digits.allSatisfy(inRadix) else { return nil }
            if let value = Int(digits, radix: radix) { return .number(JSONNumber(value)) }
            let value = digits.reduce(0.0) { $0 * Double(radix) + Double($1.hexDigitValue ?? 0) }
            return JSONNumber(value).map(JSONValue.number) ?? infinity(negative: false)
        }

        /// Infinity as a JSON number: `1e999` (`-1e999`), a literal no `Double` holds.
        static func infinity(negative: Bool) -> JSONValue {
            JSONNumber(text: negative ? "-1e999" : "1e999").map(JSONValue.number) ?? .null
        }

        /// `[0-9]+`, `[0-9]*\.[0-9]+` or `[0-9]+\.[0-9]*`, then an optional `[eE][-+]?[0-9]+`
        /// (the text after a sign), as a JSON number literal; `nil` when the text is not that.
        static func decimal(_ text: Substring, negative: Bool) -> JSONValue? {
            func isDigit(_ character: Character) -> Bool { character >= "0" && character <= "9" }
            var rest = text[...]
            let whole = rest.prefix(while: isDigit)
            rest = rest.dropFirst(whole.count)
            var fraction: Substring = ""
            if rest.first == "." {
                fraction = rest.dropFirst().prefix(while: isDigit)
                rest = rest.dropFirst(1 + fraction.count)
            }
            guard !whole.isEmpty || !fraction.isEmpty else { return nil }
            var exponent = ""
            if let mark = rest.first, mark == "e" || mark == "E" {
                var digits = rest.dropFirst()
                let sign = digits.first == "-" || digits.first == "+" ? String(digits.prefix(1)) : ""
                digits = digits.dropFirst(sign.count)
                let power = digits.prefix(while: isDigit)
                guard !power.isEmpty else { return nil }
                exponent = String(mark) + sign + power
                rest = digits.dropFirst(power.count)
            }
            guard rest.isEmpty else { return nil }
            let integral = whole.drop { $0 == "0" }
            let literal =
                (negative ? "-" : "") + (integral.isEmpty ? "0" : String(integral))
                + (fraction.isEmpty ? "" : "." + fraction) + exponent
            return JSONNumber(text: literal).map(JSONValue.number)
        }
    }
}
