import Foundation
import SophonCore

/// Converts a JSON Schema document into a Gemini ``GeminiSchema`` (the `responseSchema` subset).
///
/// - `$ref` (`#/$defs/...`, `#/definitions/...`, any `#/...` pointer into the document) is
///   inlined; sibling keys of `$ref` override the referenced schema's. A reference that leads
///   back into itself cannot be inlined: ``GeminiSchemaError/recursiveReference(path:reference:)``.
/// - `const` becomes a one-value `enum`. `type: [T, "null"]`, `anyOf`/`oneOf` with a
///   `{"type": "null"}` branch, and `null` in an `enum` become `nullable: true`. `oneOf` is read
///   as `anyOf` (noted). `allOf` with one member is merged; with more it is refused.
/// - Enum values must be strings for the API: number and boolean values are written as their
///   JSON text (`1` -> `"1"`) and the type becomes `STRING`, with a note (a lenient decoder
///   reads them back as numbers). Object or array values are refused.
/// - Kept: title, description, enum, format, nullable, minimum/maximum, minItems/maxItems,
///   minLength/maxLength, minProperties/maxProperties, pattern, required, properties (in
///   document order), items, example, propertyOrdering (filled from document order when
///   absent). Every other key is dropped with a note: `$schema`, `$id`, `$comment`,
///   `additionalProperties`, `examples`, `default`, `discriminator`, `exclusiveMinimum`, ...
/// - Type names match case-insensitively, so a Gemini Schema document converts to itself.
public enum JSONSchemaConverter {
    /// The result: the schema and what was changed or dropped on the way.
    public struct Conversion: Sendable, Hashable {
        /// The Gemini schema.
        public let schema: GeminiSchema
        /// What was dropped or changed, in document order, each once.
        public let notes: [GeminiSchemaIssue]
    }

    /// Converts `document` (the root JSON Schema).
    /// - Throws: ``GeminiSchemaError`` with the JSON path: `recursiveReference`,
    ///   `unresolvableReference` (missing target, or a reference outside the document),
    ///   `unsupported` (a boolean schema, several non-null types, `allOf` with several members,
    ///   tuple `items`/`prefixItems`, an object or array enum value, nesting past
    ///   ``GeminiSchema/maximumDepth``, an expansion past 10,000 schemas), `invalidValue` (a
    ///   keyword with the wrong kind of value).
    public static func convert(_ document: JSONValue) throws(GeminiSchemaError) -> Conversion {
        var converter = SchemaConversionRun(root: document)
        let schema = try converter.convert(document, path: "$", depth: 0)
        var seen = Set<GeminiSchemaIssue>()
        let notes = converter.notes.filter { seen.insert($0).inserted }
        return Conversion(schema: schema, notes: notes)
    }

    /// Keys dropped because the API rejects or ignores them; they get a note each.
    static let droppedKeys: Set<String> = [
        "$schema", "$id", "$comment", "additionalProperties", "examples", "default",
        "discriminator",
    ]
}

/// One conversion: the document root (for references) and the notes gathered.
struct SchemaConversionRun {
    let root: JSONValue
    var notes: [GeminiSchemaIssue] = []
    private var referenceStack: [String] = []
    private var convertedCount = 0

    /// The most schemas one conversion may produce: references used many times multiply, and
    /// a document whose expansion passes this is refused instead of running for ever.
    static let maximumSchemaCount = 10_000

    init(root: JSONValue) { self.root = root }

    private mutating func note(_ path: String, _ message: String) {
        notes.append(GeminiSchemaIssue(path: path, message: message))
    }

    mutating func convert(_ node: JSONValue, path: String, depth: Int) throws(GeminiSchemaError)
        -> GeminiSchema
    {
        guard depth <= GeminiSchema.maximumDepth else {
            throw .unsupported(
                path: path, reason: "schemas nested deeper than \(GeminiSchema.maximumDepth) levels")
        }
        convertedCount += 1
        guard convertedCount <= SchemaConversionRun.maximumSchemaCount else {
            throw .unsupported(
                path: path,
                reason:
                    "inlining references expands the schema past \(SchemaConversionRun.maximumSchemaCount) schemas"
            )
        }
        guard case .object(let members) = node else {
            if case .bool = node {
                throw .unsupported(
                    path: path, reason: "a boolean schema (true/false) has no Gemini Schema equivalent")
            }
            throw .invalidValue(path: path, expected: "a schema object")
        }
        if let reference = node["$ref"] {
            return try convertReference(reference, members: members, path: path, depth: depth)
        }
        if let allOf = node["allOf"] {
            guard case .array(let parts) = allOf, parts.count == 1, case .object(let inner) = parts[0] else {
                throw .unsupported(
                    path: path, reason: "allOf with several schemas cannot be converted; merge them")
            }
            return try convert(
                .object(merge(inner, over: members, without: "allOf")), path: path, depth: depth + 1)
        }
        for key in ["anyOf", "oneOf"] {
            if let branches = node[key] {
                return try convertUnion(branches, key: key, members: members, path: path, depth: depth)
            }
        }
        return try convertPlain(members, path: path, depth: depth)
    }

    /// `base` members, overridden by `overlay` members (without `key`), base order first.
    private func merge(_ base: [JSONMember], over overlay: [JSONMember], without key: String) -> [JSONMember]
    {
        var result = base
        for member in overlay where member.key != key && member.key != "$defs" && member.key != "definitions"
        {
            if let index = result.firstIndex(where: { $0.key == member.key }) {
                result[index] = member
            } else {
                result.append(member)
            }
        }
        return result
    }

    private mutating func convertReference(
        _ reference: JSONValue, members: [JSONMember], path: String, depth: Int
    ) throws(GeminiSchemaError) -> GeminiSchema {
        let refPath = JSONPath.member(path, "$ref")
        guard case .string(let text) = reference else {
            throw .invalidValue(path: refPath, expected: "a string")
        }
        guard !referenceStack.contains(text) else { throw .recursiveReference(path: path, reference: text) }
        guard let target = resolve(text) else { throw .unresolvableReference(path: path, reference: text) }
        guard case .object(let targetMembers) = target else {
            throw .unsupported(
                path: path, reason: "reference \(JSONValueText.quoted(text)) is not a schema object")
        }
        referenceStack.append(text)
        defer { referenceStack.removeLast() }
        let merged = merge(
            targetMembers.filter { $0.key != "$defs" && $0.key != "definitions" }, over: members,
            without: "$ref")
        return try convert(.object(merged), path: path, depth: depth + 1)
    }

    /// Resolves `#`, `#/a/b` (JSON Pointer, `~0` `~1` and `%XX` decoded) against the root.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = String(reference.dropFirst()).removingPercentEncodingIfPossible()
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = rawToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(
                of: "~0", with: "~")
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }

    private mutating func convertUnion(
        _ branchesValue: JSONValue, key: String, members: [JSONMember], path: String, depth: Int
    ) throws(GeminiSchemaError) -> GeminiSchema {
        let unionPath = JSONPath.member(path, key)
        guard case .array(let branches) = branchesValue else {
            throw .invalidValue(path: unionPath, expected: "an array")
        }
        if key == "oneOf" { note(path, "oneOf read as anyOf") }
        var nullable = node(members, "nullable") == .bool(true)
        var kept: [(JSONValue, Int)] = []
        for (index, branch) in branches.enumerated() {
            if isNullSchema(branch) { nullable = true } else { kept.append((branch, index)) }
        }
        var siblings = members.filter { $0.key != key && $0.key != "$defs" && $0.key != "definitions" }
        if nullable {
            siblings.removeAll { $0.key == "nullable" }
            siblings.append(JSONMember("nullable", .bool(true)))
        }
        if kept.isEmpty {
            return try convertPlain(
                siblings + [JSONMember("type", .string("null"))], path: path, depth: depth)
        }
        if kept.count == 1, case .object(let inner) = kept[0].0 {
            return try convert(
                .object(merge(inner, over: siblings, without: key)), path: path, depth: depth + 1)
        }
        var converted: [GeminiSchema] = []
        for (branch, index) in kept {
            var schema = try convert(branch, path: JSONPath.index(unionPath, index), depth: depth + 1)
            if nullable { schema.nullable = true }
            converted.append(schema)
        }
        for sibling in siblings where sibling.key != "nullable" {
            note(
                path, "dropped \(JSONValueText.quoted(sibling.key)) beside anyOf (the API wants anyOf alone)")
        }
        return GeminiSchema(anyOf: converted)
    }

    private func node(_ members: [JSONMember], _ key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    private func isNullSchema(_ branch: JSONValue) -> Bool {
        guard case .object(let members) = branch, let type = branch["type"]?.stringValue else { return false }
        return type.lowercased() == "null"
            && members.allSatisfy { ["type", "description", "title"].contains($0.key) }
    }
}

extension String {
    /// The string with `%XX` escapes decoded, or unchanged when they do not form UTF-8.
    fileprivate func removingPercentEncodingIfPossible() -> String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

/// Why a tool cannot become a declaration (``FunctionDeclaration/converting(name:description:inputSchema:sendUnconvertible:)``).
public enum FunctionDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is not one the API accepts (``FunctionDeclaration/isValidName(_:)``).
    case invalidName(String)
    /// The converter cannot take the input schema.
    case inputSchema(GeminiSchemaError)

    /// The one sentence for it, said the same way for MCP tools, plugin tools and `tool @FILE`:
    /// `not a valid function name (...)` or `input schema PATH: REASON`.
    public var description: String {
        switch self {
        case .invalidName:
            "not a valid function name (letters, digits, _ : . -; at most 64; a letter or _ first)"
        case .inputSchema(let error): "input schema " + error.description
        }
    }
}

extension FunctionDeclaration {
    /// The one conversion of a tool's JSON Schema into a declaration, for MCP tools
    /// (docs/mcp.md, "Tools"), plugin tools (docs/plugin-protocol.md) and `tool NAME @FILE` /
    /// `tool @FILE` (docs/commands.md, "Tools").
    ///
    /// The schema is read by ``GeminiSchemaDocument`` (Gemini Schema, or JSON Schema through
    /// ``JSONSchemaConverter``); an object schema without properties sends no parameters. One
    /// rule for what it cannot take, with one reason text (``FunctionDeclarationError``): an
    /// MCP tool is refused and not offered (docs/mcp.md); a schema the user wrote (`tool @FILE`,
    /// a plugin's manifest) goes as written in `parametersJsonSchema` when `sendUnconvertible`
    /// is set and it is a JSON object (docs/commands.md, "Tools": "`parameters` when the
    /// converter takes it, else `parametersJsonSchema`"); a value that is not an object (`5`,
    /// `[...]`) is thrown in every case.
    /// - Parameters:
    ///   - name: the function's name.
    ///   - description: what it does; an empty one is left out.
    ///   - inputSchema: the schema of the arguments object, if any.
    ///   - sendUnconvertible: send a schema the converter cannot take as `parametersJsonSchema`
    ///     instead of throwing (default `false`).
    /// - Returns: the declaration and what conversion dropped or changed.
    /// - Throws: ``FunctionDeclarationError``.
    public static func converting(
        name: String, description: String?, inputSchema: JSONValue?, sendUnconvertible: Bool = false
    ) throws(FunctionDeclarationError) -> (declaration: FunctionDeclaration, notes: [GeminiSchemaIssue]) {
        guard isValidName(name) else { throw .invalidName(name) }
        var declaration = FunctionDeclaration(
            name: name, description: description?.isEmpty == false ? description : nil)
        guard let schema = inputSchema else { return (declaration, []) }
        if case .object(let properties)? = schema["properties"], properties.isEmpty {
            return (declaration, [])
        }
        if schema["properties"] == nil, schema["type"]?.stringValue?.lowercased() == "object",
            schema["$ref"] == nil
        {
            return (declaration, [])
        }
        do {
            let document = try GeminiSchemaDocument(schema)
            declaration.parameters = document.schema
            return (declaration, document.notes)
        } catch {
            // Only a schema object goes as written: `5`, `"string"` or `[...]` is no schema
            // of an arguments object, and the API would refuse it with a 400.
            guard sendUnconvertible, case .object = schema else { throw .inputSchema(error) }
            declaration.parametersJsonSchema = schema
            return (declaration, [])
        }
    }
}
