import SophonCore

extension GeminiSchema {
    /// What the API would refuse with a 400 INVALID_ARGUMENT (which recurs on every retry), found
    /// before sending (source: the Gemini API reference, `Schema`; the API answers each with 400):
    ///
    /// - `anyOf` beside other fields (the API wants `anyOf` as the only field);
    /// - `enum` on a type other than `STRING`;
    /// - an `OBJECT` with no properties;
    /// - a `required` or `propertyOrdering` name that is not a property;
    /// - a `type` the API does not know.
    ///
    /// - Returns: one entry per problem; its path is the schema's JSON path in the request's
    ///   `responseSchema` (`$.properties.tags.items`). Empty when nothing is known to fail.
    public func apiProblems() -> [GeminiSchemaIssue] {
        var problems: [GeminiSchemaIssue] = []
        collectAPIProblems(path: "$", into: &problems)
        return problems
    }

    private func collectAPIProblems(path: String, into problems: inout [GeminiSchemaIssue]) {
        func report(_ message: String) {
            problems.append(GeminiSchemaIssue(path: path, message: message))
        }
        if let anyOf, !anyOf.isEmpty {
            var alone = self
            alone.anyOf = nil
            if alone != GeminiSchema() { report("anyOf must be the only field of its schema") }
        }
        if case .unknown(let raw) = type { report("unknown type \(JSONValueText.quoted(raw))") }
        if enumValues != nil, let type, type != .string {
            report("enum is only allowed on STRING, not \(type.rawValue)")
        }
        if type == .object, properties?.isEmpty ?? true { report("an OBJECT needs at least one property") }
        let names = Set(properties?.names ?? [])
        for name in required ?? [] where !names.contains(name) {
            report("required names \(JSONValueText.quoted(name)), which is not a property")
        }
        for name in propertyOrdering ?? [] where !names.contains(name) {
            report("propertyOrdering names \(JSONValueText.quoted(name)), which is not a property")
        }
        items?.collectAPIProblems(path: JSONPath.member(path, "items"), into: &problems)
        for property in properties ?? GeminiSchemaProperties() {
            property.schema.collectAPIProblems(
                path: JSONPath.member(JSONPath.member(path, "properties"), property.name),
                into: &problems)
        }
        for (index, branch) in (anyOf ?? []).enumerated() {
            branch.collectAPIProblems(
                path: JSONPath.index(JSONPath.member(path, "anyOf"), index), into: &problems)
        }
    }
}
