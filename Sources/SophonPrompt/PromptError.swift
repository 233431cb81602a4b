/// Why a prompt file could not be parsed or rendered, at FILE:LINE:COL (docs/prompts.md).
public struct PromptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The frontmatter is not valid YAML (libyaml's problem and mark).
        case yaml
        /// A `{{name args}}` or block names a helper Sophon does not have.
        case unknownHelper
        /// A `{{> name}}` names no `_name.prompt` file and no resolver entry.
        case unknownPartial
        /// A Picoschema type that is neither a scalar type nor a named schema.
        case unknownSchemaType
        /// A template that does not parse (an unclosed block, a stray `{{/x}}`).
        case template
        /// The file cannot be read.
        case file
        /// The first line is `---` and no later line is `---`.
        case unclosedFrontmatter
        /// Partials include each other (or themselves) deeper than
        /// ``TemplateRenderer/maximumPartialDepth``.
        case partialDepth
        /// A frontmatter `config` value of the wrong type or out of range (`temperature: hot`),
        /// found when the file is sent.
        case config
        /// The data argument (`--data`) is not `{input, context, messages, docs}`.
        case data
    }

    /// What went wrong.
    public var kind: Kind
    /// The message, without the location.
    public var message: String
    /// The file (as given), or `<template>` for text.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// An error of `kind` at `file`:`line`:`column`.
    public init(_ kind: Kind, _ message: String, file: String, line: Int, column: Int) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COL: message`.
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
