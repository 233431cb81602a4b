import SophonCore

/// Renders ``TemplateNode`` trees to text, Handlebars' way without HTML escaping: values print as
/// JavaScript would (`null` and missing as nothing, arrays joined by commas), `#if` treats
/// `false`, `null`, `""`, `0` and `[]` as false, `#each` sets `@index`, `@key`, `@first`,
/// `@last`. Dotprompt's helpers print the markers ``PromptMessages`` splits on.
public struct TemplateRenderer: Sendable {
    /// Where `{{> name}}` finds a partial's source: the template text, or `nil` when unknown;
    /// a ``PromptError`` for one that is there but cannot be read.
    public typealias PartialResolver = @Sendable (String) throws(PromptError) -> String?

    /// The file named in errors.
    public var file: String
    /// `@` variables of the whole render (`@state`, `@auth`, ..., from the data's `context`).
    public var dataVariables: [String: JSONValue]
    /// Finds partials.
    public var partials: PartialResolver
    /// How deep partials may include partials: a partial that includes itself (`{{> self}}`
    /// in `_self.prompt`) stops here with an error instead of recursing without end.
    public static let maximumPartialDepth = 32

    /// A renderer for `file`.
    public init(file: String, dataVariables: [String: JSONValue] = [:], partials: @escaping PartialResolver) {
        self.file = file
        self.dataVariables = dataVariables
        self.partials = partials
    }

    /// One level of the context stack.
    struct Frame {
        var value: JSONValue
        var data: [String: JSONValue]
    }

    /// The text of `nodes` over `root`.
    /// - Throws: ``PromptError`` for an unknown helper or partial.
    public func render(_ nodes: [TemplateNode], root: JSONValue) throws(PromptError) -> String {
        var data = dataVariables
        data["root"] = root
        var output = ""
        try render(nodes, stack: [Frame(value: root, data: data)], into: &output, partials: [])
        return output
    }

    /// The file that holds partial `name`, as errors name it: `_name.prompt` in the folder of
    /// ``file`` (`prompts/_sig.prompt` for `prompts/card.prompt`).
    public func partialFile(_ name: String) -> String { Self.partialFile(name, besides: file) }

    /// The file that holds partial `name` of the template `file`, as errors name it.
    public static func partialFile(_ name: String, besides file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "_\(name).prompt" }
        return String(file[...slash]) + "_\(name).prompt"
    }

    /// Renders `nodes` inside the partials named in `partials` (outermost first).
    func render(_ nodes: [TemplateNode], stack: [Frame], into output: inout String, partials chain: [String])
        throws(PromptError)
    {
        for node in nodes {
            switch node {
            case .text(let text): output += text
            case .mustache(let call): output += Self.print(try evaluate(call, stack: stack))
            case .partial(let name, let context, let hash, let line, let column):
                guard chain.count < Self.maximumPartialDepth else {
                    let cycle = (chain.lastIndex(of: name).map { Array(chain[$0...]) } ?? chain) + [name]
                    throw PromptError(
                        .partialDepth,
                        "partial '\(name)' includes itself (\(cycle.joined(separator: " > "))): partials nest at most "
                            + "\(Self.maximumPartialDepth) levels deep",
                        file: file, line: line, column: column)
                }
                guard let source = try partials(name) else {
                    throw PromptError(
                        .unknownPartial, "unknown partial '\(name)'", file: file, line: line, column: column)
                }
                var inside = self
                inside.file = partialFile(name)
                let nodes = try TemplateParser.parse(source, file: inside.file)
                var inner = stack
                if context != nil || !hash.isEmpty {
                    var base =
                        try context.map { expression throws(PromptError) in
                            try value(expression, stack: stack)
                        }
                        ?? stack.last!.value
                    for (key, expression) in hash.sorted(by: { $0.key < $1.key }) {
                        base = Picoschema.setting(base, key, try value(expression, stack: stack))
                    }
                    inner.append(Frame(value: base, data: stack.last!.data))
                }
                try inside.render(nodes, stack: inner, into: &output, partials: chain + [name])
            case .block(let call, let body, let inverse):
                try block(call, body: body, inverse: inverse, stack: stack, into: &output, partials: chain)
            }
        }
    }

    /// A block: the built-in `if`, `unless`, `each`, `with`, Dotprompt's `ifEquals` and
    /// `unlessEquals`, or a path used as a section (truthy: body over the value).
    func block(
        _ call: TemplateCall, body: [TemplateNode], inverse: [TemplateNode], stack: [Frame],
        into output: inout String,
        partials chain: [String]
    ) throws(PromptError) {
        let arguments = try call.parameters.map { expression throws(PromptError) in
            try value(expression, stack: stack)
        }
        let name = call.parameters.isEmpty ? nil : call.head.simpleName
        func branch(_ condition: Bool) throws(PromptError) {
            try render(condition ? body : inverse, stack: stack, into: &output, partials: chain)
        }
        switch name {
        case "if": try branch(Self.truthy(arguments[0]))
        case "unless": try branch(!Self.truthy(arguments[0]))
        case "ifEquals": try branch(arguments.count > 1 && arguments[0] == arguments[1])
        case "unlessEquals": try branch(!(arguments.count > 1 && arguments[0] == arguments[1]))
        case "with":
            guard Self.truthy(arguments[0]) else { return try branch(false) }
            try render(
                body, stack: stack + [Frame(value: arguments[0], data: stack.last!.data)], into: &output,
                partials: chain)
        case "each":
            let items: [(key: JSONValue, value: JSONValue)]
            switch arguments[0] {
            case .array(let elements): items = elements.enumerated().map { (.integer($0.offset), $0.element) }
            case .object(let members): items = members.map { (.string($0.key), $0.value) }
            default: items = []
            }
            guard !items.isEmpty else { return try branch(false) }
            for (offset, item) in items.enumerated() {
                var data = stack.last!.data
                data["index"] = .integer(offset)
                data["key"] = item.key
                data["first"] = .bool(offset == 0)
                data["last"] = .bool(offset == items.count - 1)
                try render(
                    body, stack: stack + [Frame(value: item.value, data: data)], into: &output,
                    partials: chain)
            }
        case .some(let helper):
            throw PromptError(
                .unknownHelper, "unknown block helper '\(helper)'", file: file, line: call.line,
                column: call.column)
        case nil:
            let section = try value(call.head, stack: stack)
            try branch(Self.truthy(section))
        }
    }

    /// The value of a mustache: a helper's output or a path's value.
    func evaluate(_ call: TemplateCall, stack: [Frame]) throws(PromptError) -> JSONValue {
        guard let name = call.head.simpleName,
            !call.parameters.isEmpty || !call.hash.isEmpty || PromptHelpers.takesNoArguments(name)
        else { return try value(call.head, stack: stack) }
        let arguments = try call.parameters.map { expression throws(PromptError) in
            try value(expression, stack: stack)
        }
        var hash: [String: JSONValue] = [:]
        for (key, expression) in call.hash { hash[key] = try value(expression, stack: stack) }
        guard let result = PromptHelpers.call(name, arguments, hash: hash) else {
            throw PromptError(
                .unknownHelper, "unknown helper '\(name)'", file: file, line: call.line, column: call.column)
        }
        return result
    }

    /// The value of an expression in `stack`; missing paths are `.null`.
    func value(_ expression: TemplateExpression, stack: [Frame]) throws(PromptError) -> JSONValue {
        switch expression {
        case .literal(let value): return value
        case .subexpression(let call): return try evaluate(call, stack: stack)
        case .path(let parts, let data, let up):
            let frame = stack[max(0, stack.count - 1 - up)]
            var current: JSONValue
            var rest = parts[...]
            if data {
                guard let first = rest.popFirst() else { return .null }
                current = frame.data[first] ?? .null
            } else {
                current = frame.value
            }
            for part in rest {
                if case .array = current, let index = Int(part) {
                    current = current[index] ?? .null
                } else if part == "length", case .array(let elements) = current {
                    current = .integer(elements.count)
                } else {
                    current = current[part] ?? .null
                }
            }
            return current
        }
    }

    /// Handlebars' truthiness.
    static func truthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .string(let text): return !text.isEmpty
        case .number(let number): return number.doubleValue != 0
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }

    /// A value as JavaScript's `String(value)` prints it (no HTML escaping).
    static func print(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return text
        case .number(let number): return number.description
        case .array(let elements): return elements.map { print($0) }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }
}
