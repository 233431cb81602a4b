extension GeminiSchema {
    /// A property of the type syntax whose type is a quoted type name (`title: "string"`): an
    /// enum of that one word, almost always written out of JSON Schema habit
    /// (`{"title": "string"}`) where a type was meant.
    public struct QuotedTypeName: Sendable, Hashable {
        /// The property's path from the top object, names joined by `.` (`author.name`).
        public var path: String
        /// The quoted word: `string`.
        public var typeName: String
        /// The property as written, named by its path: `title: "string"`, `tags: ["string"]`,
        /// `author.name: "string"`.
        public var written: String
        /// The property with its type unquoted: `title: string`, `tags: [string]`.
        public var fix: String
    }

    /// The words that are type names in JSON Schema (`type`) or in the type syntax (aliases
    /// included), which a one-value enum of the type syntax is checked against.
    static let typeNameWords: Set<String> = [
        "string", "integer", "number", "boolean", "array", "object", "null", "str", "int", "float",
        "double", "bool",
    ]

    /// The properties, at any depth, whose schema is an enum of one value that is a type name
    /// (`typeNameWords`), directly or as the element of arrays (`tags: ["string"]`), in the
    /// order written. The schema is not changed: a one-value enum stays a valid schema; callers
    /// warn.
    ///
    /// - Returns: one entry per such property; empty for a schema without them.
    public func quotedTypeNames() -> [QuotedTypeName] {
        var found: [QuotedTypeName] = []
        collectQuotedTypeNames(prefix: "", into: &found)
        return found
    }

    private func collectQuotedTypeNames(prefix: String, into found: inout [QuotedTypeName]) {
        if let items { items.collectQuotedTypeNames(prefix: prefix, into: &found) }
        guard let properties else { return }
        for property in properties {
            let path = prefix.isEmpty ? property.name : "\(prefix).\(property.name)"
            var schema = property.schema
            var depth = 0
            while schema.type == .array, let items = schema.items {
                schema = items
                depth += 1
            }
            if schema.type == .string, let values = schema.enumValues, values.count == 1,
                Self.typeNameWords.contains(values[0])
            {
                let open = String(repeating: "[", count: depth)
                let close = String(repeating: "]", count: depth)
                found.append(
                    QuotedTypeName(
                        path: path, typeName: values[0], written: "\(path): \(open)\"\(values[0])\"\(close)",
                        fix: "\(property.name): \(open)\(values[0])\(close)"))
            }
            schema.collectQuotedTypeNames(prefix: path, into: &found)
        }
    }
}
