/// One word of a command after lexing: literal text and variable references, in order.
///
/// Quotes and escapes are already resolved; expansions are kept as references and resolved at
/// run time by ``ShellExpander``. A word never splits into several words on expansion.
struct ShellWord: Sendable, Hashable, CustomStringConvertible {
    /// The pieces in order; adjacent literals are merged. Empty for `""` or `''`.
    var parts: [ShellWordPart]
    /// Whether any quote or backslash escape was used in the word. A quoted word is always
    /// text, even `"$a"`.
    var isQuoted: Bool
    /// Whether the word was written as a `"""` block (``LetAssignment`` rule 2).
    var isBlock: Bool

    /// Creates a word.
    init(_ parts: [ShellWordPart], isQuoted: Bool = false, isBlock: Bool = false) {
        self.parts = parts
        self.isQuoted = isQuoted
        self.isBlock = isBlock
    }

    /// A bare literal word such as `echo`.
    static func literal(_ text: String, isQuoted: Bool = false) -> ShellWord {
        ShellWord(text.isEmpty ? [] : [.literal(text)], isQuoted: isQuoted)
    }

    /// The text when the word has no expansions, else `nil`. Used for command names, options
    /// and operators, which never expand.
    var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let piece) = part else { return nil }
            text += piece
        }
        return text
    }

    /// The reference when the word is exactly one unquoted expansion (`$a`, `${last.year}`);
    /// such a word keeps its JSON value in `let` and `expect`. `nil` otherwise.
    var singleExpansion: VariableReference? {
        guard !isQuoted, parts.count == 1, case .expansion(let reference) = parts[0] else {
            return nil
        }
        return reference
    }

    /// A debugging form: literals as-is, references as written (`${v.a[1]}`).
    var description: String {
        parts.map { part in
            switch part {
            case .literal(let text): text
            case .expansion(let reference): reference.description
            }
        }.joined()
    }
}

/// A piece of a ``ShellWord``.
enum ShellWordPart: Sendable, Hashable {
    /// Text taken as is (quotes and escapes already resolved).
    case literal(String)
    /// A variable reference to expand at run time.
    case expansion(VariableReference)
}

/// `$name`, `${name}` or `${name.field[0].other}`: a variable and a path into its value.
struct VariableReference: Sendable, Hashable, CustomStringConvertible {
    /// The variable name, `[A-Za-z_][A-Za-z0-9_]*`.
    var name: String
    /// The path into the value, in order; empty for `$name`.
    var path: [PathComponent]
    /// Whether it was written with braces; only changes how it is printed.
    var braced: Bool

    /// Creates a reference.
    init(_ name: String, path: [PathComponent] = [], braced: Bool? = nil) {
        self.name = name
        self.path = path
        self.braced = braced ?? !path.isEmpty
    }

    /// The reference as written: `$name`, `${name}`, `${v.a[1].b}`.
    var description: String { spelled(pathCount: path.count) }

    /// The reference cut after `pathCount` path components, in braces when it has a path:
    /// `${v.a}` for the first component of `${v.a[1].b}`. Used in error messages.
    func spelled(pathCount: Int) -> String {
        let components = path.prefix(max(pathCount, 0))
        guard braced || !components.isEmpty else { return "$" + name }
        return "${" + name + components.map(\.description).joined() + "}"
    }

    /// One step of a path.
    enum PathComponent: Sendable, Hashable, CustomStringConvertible {
        /// `.key`: a member of an object.
        case field(String)
        /// `[n]`: an element of an array, 0-based.
        case index(Int)

        /// `.key` or `[n]`.
        var description: String {
            switch self {
            case .field(let key): "." + key
            case .index(let index): "[\(index)]"
            }
        }
    }
}
