extension ShellLexer {
    /// Whether `scalar` may start a variable name: `[A-Za-z_]`.
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether `scalar` may continue a variable name: `[A-Za-z0-9_]`.
    static func isNameContinue(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar)
    }

    /// Whether `text` is a variable name: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isVariableName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isNameStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isNameContinue)
    }

    /// A field name in `${v.field}`: anything but blanks, newlines, quotes, `\`, `$` and the
    /// path punctuation `.[]{}`.
    static func isFieldScalar(_ scalar: Unicode.Scalar) -> Bool {
        !" \t\n.[]{}$\"'\\".unicodeScalars.contains(scalar)
    }

    /// Reads what follows a `$` at `index`: `$name`, `${name...}`, or a literal `$` when neither
    /// a name nor `{` follows.
    ///
    /// - Parameters:
    ///   - index: the offset of the `$`.
    ///   - limit: the offset the reference may not reach (a closing quote, a line end).
    /// - Returns: the offset after what was read.
    mutating func lexDollar(at index: Int, limit: Int, into builder: inout WordBuilder) -> Int {
        let next = index + 1 < limit ? scalars[index + 1] : nil
        if let next, ShellLexer.isNameStart(next) {
            var cursor = index + 1
            while cursor < limit, ShellLexer.isNameContinue(scalars[cursor]) { cursor += 1 }
            builder.append(VariableReference(source.string(from: index + 1, to: cursor), braced: false))
            return cursor
        }
        guard next == "{" else {
            builder.append("$")
            return index + 1
        }
        switch lexBraced(at: index, limit: limit) {
        case .success(let (reference, end)):
            builder.append(reference)
            return end
        case .failure(let failure):
            fail(failure.message, at: failure.offset)
            // Recover at the closing brace of this line, if any.
            var cursor = index + 2
            while cursor < limit, scalars[cursor] != "}", scalars[cursor] != "\n" { cursor += 1 }
            let end = cursor < limit && scalars[cursor] == "}" ? cursor + 1 : cursor
            builder.append(source.string(from: index, to: end))
            return end
        }
    }

    /// A malformed `${...}`: the message and the scalar offset to point at.
    struct BraceFailure: Error {
        let message: String
        let offset: Int
    }

    /// Reads `${name(.field|[index])*}` with the `$` at `index`.
    private func lexBraced(
        at index: Int, limit: Int
    ) -> Result<(VariableReference, Int), BraceFailure> {
        var cursor = index + 2
        let nameStart = cursor
        guard cursor < limit, ShellLexer.isNameStart(scalars[cursor]) else {
            if cursor < limit, scalars[cursor] == "}" {
                return .failure(BraceFailure(message: "empty variable reference '${}'", offset: index))
            }
            return .failure(
                BraceFailure(message: "expected a variable name after '${'", offset: cursor))
        }
        while cursor < limit, ShellLexer.isNameContinue(scalars[cursor]) { cursor += 1 }
        var reference = VariableReference(source.string(from: nameStart, to: cursor), braced: true)
        while true {
            guard cursor < limit, scalars[cursor] != "\n" else {
                return .failure(
                    BraceFailure(message: "unterminated '${': expected '}'", offset: index))
            }
            switch scalars[cursor] {
            case "}":
                return .success((reference, cursor + 1))
            case ".":
                let fieldStart = cursor + 1
                cursor = fieldStart
                while cursor < limit, ShellLexer.isFieldScalar(scalars[cursor]) { cursor += 1 }
                guard cursor > fieldStart else {
                    return .failure(
                        BraceFailure(message: "expected a field name after '.'", offset: fieldStart))
                }
                reference.path.append(.field(source.string(from: fieldStart, to: cursor)))
            case "[":
                let digitsStart = cursor + 1
                cursor = digitsStart
                while cursor < limit, ("0"..."9").contains(scalars[cursor]) { cursor += 1 }
                guard cursor > digitsStart, cursor < limit, scalars[cursor] == "]" else {
                    return .failure(
                        BraceFailure(
                            message: "expected an array index (digits) and ']' after '['",
                            offset: cursor > digitsStart ? cursor : digitsStart))
                }
                guard let value = Int(source.string(from: digitsStart, to: cursor)) else {
                    return .failure(BraceFailure(message: "array index too large", offset: digitsStart))
                }
                reference.path.append(.index(value))
                cursor += 1
            default:
                return .failure(
                    BraceFailure(
                        message:
                            "unexpected '\(String(scalars[cursor]))' in '${...}'; expected '.field', '[index]' or '}'",
                        offset: cursor))
            }
        }
    }
}
