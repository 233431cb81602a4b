import Foundation
import SophonCore

extension GeminiSchema {
    /// Swift source of a `Decodable` struct whose derived schema (``init(for:)``) is this one
    /// (the shell's `schema show --swift`): one `let` per property in order, optional when not
    /// required or nullable; `STRING` as `String` (`Date` for `date-time`, a nested
    /// `CaseIterable` enum for an `enum`), `INTEGER` as `Int`, `NUMBER` as `Double`, `BOOLEAN` as
    /// `Bool`, arrays as `[T]`, objects as nested structs; descriptions and bounds as
    /// ``GeminiSchemaFacets`` in `schemaFacets`. Names that are not Swift identifiers get
    /// `CodingKeys`; a value of no single type (`anyOf`, no `type`) is SophonCore's `JSONValue`.
    /// - Parameter typeName: the struct's name (`Answer`); a schema that is not an object is
    ///   a `typealias` of that name.
    /// - Returns: the declaration, ending with a line break.
    public func swiftDeclaration(typeName: String = "Answer") -> String {
        var writer = SwiftSourceWriter()
        if type == .object {
            writer.writeStruct(self, named: SwiftSourceWriter.typeName(typeName), indent: "")
        } else {
            let element = writer.typeExpression(
                self, named: SwiftSourceWriter.typeName(typeName) + "Item", indent: "")
            writer.nested.insert(
                "typealias \(SwiftSourceWriter.typeName(typeName)) = \(element.text)\n", at: 0)
            writer.lines.append(contentsOf: writer.nested)
        }
        return writer.lines.joined()
    }
}

/// Writes the Swift declarations of ``GeminiSchema/swiftDeclaration(typeName:)``.
struct SwiftSourceWriter {
    var lines: [String] = []
    /// Declarations waiting to be written inside the current struct (nested types).
    var nested: [String] = []

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while",
        "as", "Any", "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try",
        "final", "Type", "Protocol",
    ]

    /// The words of `name`: runs of letters and digits (`first_name` -> `first`, `name`).
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Whether `name` can be written as a Swift identifier as it is.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// `name` as a property or case identifier: as it is when it is one, else lower camel case.
    static func identifier(_ name: String) -> String {
        var result: String
        if isIdentifier(name) {
            result = name
        } else {
            let words = words(name)
            result =
                words.enumerated().map { index, word in
                    index == 0
                        ? word.prefix(1).lowercased() + word.dropFirst()
                        : word.prefix(1).uppercased() + word.dropFirst()
                }.joined()
            if result.isEmpty { result = "value" }
            if let first = result.first, first.isNumber { result = "_" + result }
        }
        return keywords.contains(result) ? "`\(result)`" : result
    }

    /// An identifier without the backticks that escape a keyword.
    static func bare(_ identifier: String) -> String {
        identifier.hasPrefix("`") ? String(identifier.dropFirst().dropLast()) : identifier
    }

    /// `name` as a type name: upper camel case.
    static func typeName(_ name: String) -> String {
        var result = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if result.isEmpty { result = "Value" }
        if let first = result.first, first.isNumber { result = "_" + result }
        return keywords.contains(result) ? result + "Value" : result
    }

    /// The Swift type of `schema`, declaring nested types (named `name`) in ``nested``.
    mutating func typeExpression(_ schema: GeminiSchema, named name: String, indent: String) -> (
        text: String, usesJSONValue: Bool
    ) {
        if schema.anyOf != nil { return ("JSONValue", true) }
        switch schema.type {
        case .string:
            if let values = schema.enumValues, !values.isEmpty {
                var enumLines = ["\(indent)enum \(name): String, Decodable, Sendable, CaseIterable {\n"]
                for value in values {
                    let caseName = Self.identifier(value)
                    enumLines.append(
                        "\(indent)    case \(caseName)"
                            + (Self.bare(caseName) == value ? "" : " = \(Self.literal(value))")
                            + "\n")
                }
                enumLines.append("\(indent)}\n")
                nested.append(enumLines.joined())
                return (name, false)
            }
            return (schema.format == "date-time" ? "Date" : "String", false)
        case .integer: return ("Int", false)
        case .number: return ("Double", false)
        case .boolean: return ("Bool", false)
        case .array:
            guard let items = schema.items else { return ("[JSONValue]", true) }
            let element = typeExpression(
                items, named: name.hasSuffix("s") ? String(name.dropLast()) : name + "Item", indent: indent)
            return ("[\(element.text)\(items.nullable == true ? "?" : "")]", element.usesJSONValue)
        case .object where !(schema.properties ?? GeminiSchemaProperties()).isEmpty:
            var inner = SwiftSourceWriter()
            inner.writeStruct(schema, named: name, indent: indent)
            nested.append(inner.lines.joined())
            return (name, false)
        default:
            return ("JSONValue", true)
        }
    }

    /// Writes `struct NAME: Decodable, Sendable { ... }` for an object schema.
    mutating func writeStruct(_ schema: GeminiSchema, named name: String, indent: String) {
        let properties = (schema.properties ?? GeminiSchemaProperties()).ordered(by: schema.propertyOrdering)
        let required = Set(schema.required ?? [])
        var members: [String] = []
        var facets: [String] = []
        var renamed = false
        var savedNested = nested
        nested = []
        for property in properties {
            let identifier = Self.identifier(property.name)
            if Self.bare(identifier) != property.name { renamed = true }
            let type = typeExpression(
                property.schema, named: Self.typeName(property.name), indent: indent + "    ")
            let optional = !required.contains(property.name) || property.schema.nullable == true
            if let description = property.schema.description {
                members.append("\(indent)    /// \(description.replacingOccurrences(of: "\n", with: " "))\n")
            }
            members.append("\(indent)    let \(identifier): \(type.text)\(optional ? "?" : "")\n")
            if let facet = Self.facetLiteral(property.schema) {
                facets.append("\(Self.literal(property.name)): \(facet)")
            }
        }
        let describing = !facets.isEmpty || schema.description != nil
        if let description = schema.description { lines.append("\(indent)/// \(description)\n") }
        lines.append(
            "\(indent)struct \(name): Decodable, Sendable\(describing ? ", GeminiSchemaDescribing" : "") {\n")
        for declaration in nested {
            lines.append(declaration)
            lines.append("\n")
        }
        lines.append(contentsOf: members)
        if renamed {
            lines.append("\n\(indent)    enum CodingKeys: String, CodingKey {\n")
            for property in properties {
                let identifier = Self.identifier(property.name)
                lines.append(
                    "\(indent)        case \(identifier)"
                        + (Self.bare(identifier) == property.name ? "" : " = \(Self.literal(property.name))")
                        + "\n")
            }
            lines.append("\(indent)    }\n")
        }
        if let description = schema.description {
            lines.append(
                "\n\(indent)    static let schemaDescription: String? = \(Self.literal(description))\n")
        }
        if !facets.isEmpty {
            lines.append(
                "\n\(indent)    static let schemaFacets: [String: GeminiSchemaFacets] = [\(facets.joined(separator: ", "))]\n"
            )
        }
        lines.append("\(indent)}\n")
        swap(&savedNested, &nested)
    }

    /// The facets of a property schema as Swift: a string literal for a description alone,
    /// else `GeminiSchemaFacets(...)`; `nil` for none.
    static func facetLiteral(_ schema: GeminiSchema) -> String? {
        var arguments: [String] = []
        if let text = schema.description { arguments.append("description: \(literal(text))") }
        if let title = schema.title { arguments.append("title: \(literal(title))") }
        if let format = schema.format, format != "date-time", format != "enum" {
            arguments.append("format: \(literal(format))")
        }
        for (label, value) in [("minimum", schema.minimum), ("maximum", schema.maximum)] {
            if let value { arguments.append("\(label): \(number(value))") }
        }
        for (label, value) in [
            ("minLength", schema.minLength), ("maxLength", schema.maxLength),
        ] {
            if let value { arguments.append("\(label): \(value)") }
        }
        if let pattern = schema.pattern { arguments.append("pattern: \(literal(pattern))") }
        for (label, value) in [("minItems", schema.minItems), ("maxItems", schema.maxItems)] {
            if let value { arguments.append("\(label): \(value)") }
        }
        if arguments.isEmpty { return nil }
        if arguments.count == 1, let text = schema.description { return literal(text) }
        return "GeminiSchemaFacets(\(arguments.joined(separator: ", ")))"
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String {
        "\"" + literalEscaper.escape(text) + "\""
    }

    /// The escapes of a Swift string literal: other control characters as `\u{1b}`.
    private static let literalEscaper = TextEscaper.backslashed { scalar in
        scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : nil
    }
}
