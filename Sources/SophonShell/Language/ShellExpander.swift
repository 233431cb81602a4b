import SophonCore

/// Resolves variable references in words at run time (docs/language.md).
///
/// Strings expand to their text; numbers, booleans and null to their JSON text; objects and
/// arrays to compact JSON. Expansion never splits a word and its result is never lexed again.
struct ShellExpander {
    /// Looks up a variable by name (`last` included); `nil` when it is not defined.
    let lookup: (String) -> JSONValue?
    /// Looks up a variable kept as text (`$last` after `extract`, ``LazyJSONValue``), so that a
    /// reference to all of it expands from its text without its tree being built (issue 20);
    /// `nil` when it is not kept so (then ``lookup`` answers).
    let textLookup: ((String) -> LazyJSONValue?)?

    /// Creates an expander over a variable lookup.
    /// - Parameters:
    ///   - lookup: a variable's value by name.
    ///   - textLookup: a variable kept as text, by name (see ``textLookup``).
    init(
        lookup: @escaping (String) -> JSONValue?, textLookup: ((String) -> LazyJSONValue?)? = nil
    ) {
        self.lookup = lookup
        self.textLookup = textLookup
    }

    /// The value a reference names.
    /// - Throws: ``ShellExpansionError`` when the variable is undefined or the path does not
    ///   exist in its value.
    func value(of reference: VariableReference) throws(ShellExpansionError) -> JSONValue {
        guard var current = lookup(reference.name) else {
            throw .undefinedVariable(name: reference.name)
        }
        for (depth, component) in reference.path.enumerated() {
            switch (component, current) {
            case (.field(let key), .object):
                guard let member = current[key] else {
                    throw .noField(reference: reference, depth: depth)
                }
                current = member
            case (.index(let index), .array(let elements)):
                guard let element = current[index] else {
                    throw .indexOutOfRange(reference: reference, depth: depth, count: elements.count)
                }
                current = element
            default:
                throw .wrongType(reference: reference, depth: depth, found: current.typeName)
            }
        }
        return current
    }

    /// The word as text: literals as they are, each reference as ``text(of:)-swift.type.method``
    /// of its value.
    /// - Throws: ``ShellExpansionError`` for the first reference that cannot be resolved.
    func text(of word: ShellWord) throws(ShellExpansionError) -> String {
        var text = ""
        for part in word.parts {
            switch part {
            case .literal(let piece): text += piece
            case .expansion(let reference):
                if reference.path.isEmpty, let kept = textLookup?(reference.name) {
                    // The same text as below: a string's text, else the compact JSON.
                    text += kept.stringValue ?? kept.compactText
                } else {
                    text += ShellExpander.text(of: try value(of: reference))
                }
            }
        }
        return text
    }

    /// The words expanded and joined by one space (`echo`, the right side of `expect`).
    /// - Throws: ``ShellExpansionError`` for the first reference that cannot be resolved.
    func text(of words: some Sequence<ShellWord>) throws(ShellExpansionError) -> String {
        var pieces: [String] = []
        for word in words { pieces.append(try text(of: word)) }
        return pieces.joined(separator: " ")
    }

    /// The word's JSON value when it is exactly one unquoted expansion (`$a`, `${last.year}`),
    /// else its text as a JSON string.
    /// - Throws: ``ShellExpansionError`` for a reference that cannot be resolved.
    func jsonValue(of word: ShellWord) throws(ShellExpansionError) -> JSONValue {
        if let reference = word.singleExpansion { return try value(of: reference) }
        return .string(try text(of: word))
    }

    /// How a value reads inside a word: a string's text, anything else as compact JSON.
    static func text(of value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.compactText
    }
}

/// A variable reference that could not be expanded. Its ``message`` names the reference.
enum ShellExpansionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The variable is not defined.
    case undefinedVariable(name: String)
    /// An object has no member named `path[depth]`.
    case noField(reference: VariableReference, depth: Int)
    /// An array has no element `path[depth]`; `count` is its length.
    case indexOutOfRange(reference: VariableReference, depth: Int, count: Int)
    /// `path[depth]` reads a field from a non-object or an index from a non-array; `found` is
    /// the JSON type name of what is there.
    case wrongType(reference: VariableReference, depth: Int, found: String)

    /// The message: `undefined variable 'x'`, `no field 'b' in ${v.a[1].b}`, ...
    var message: String {
        switch self {
        case .undefinedVariable(let name):
            return "undefined variable '\(name)'"
        case .noField(let reference, let depth):
            let key = Self.component(reference, depth)
            return "no field '\(key.dropFirst())' in \(reference)"
        case .indexOutOfRange(let reference, let depth, let count):
            let container = reference.spelled(pathCount: depth)
            let elements = count == 1 ? "1 element" : "\(count) elements"
            return "no element \(Self.component(reference, depth)) in \(reference) "
                + "(\(container) has \(elements))"
        case .wrongType(let reference, let depth, let found):
            let component = Self.component(reference, depth)
            let wanted = component.hasPrefix("[") ? "an array" : "an object"
            let what =
                switch found {
                case "null": "null"
                case "array", "object": "an \(found)"
                default: "a \(found)"
                }
            return "cannot read \(component) in \(reference): \(reference.spelled(pathCount: depth)) "
                + "is \(what), not \(wanted)"
        }
    }

    /// The same as ``message``.
    var description: String { message }

    private static func component(_ reference: VariableReference, _ depth: Int) -> String {
        reference.path.indices.contains(depth) ? reference.path[depth].description : ""
    }
}
