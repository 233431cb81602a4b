import SophonCore
import Testing

@testable import SophonPrompt

/// The prompt-file errors a newcomer met without a location (an unclosed frontmatter, a partial
/// that includes itself, an error inside a partial, data of the wrong shape), and the frontmatter
/// value locations the config check points at.
@Suite struct PromptFileErrorTests {
    @Test func anOpeningDashLineWithoutAClosingOneIsAnErrorAtLineOne() {
        let error = promptError { _ = try PromptDocument(parsing: "---\nmodel: m\nHi\n", file: "t.prompt") }
        #expect(
            error
                == PromptError(
                    .unclosedFrontmatter,
                    "the frontmatter opened by '---' on line 1 is not closed: no later line is '---'",
                    file: "t.prompt", line: 1, column: 1))
        #expect(
            error?.description
                == "t.prompt:1:1: the frontmatter opened by '---' on line 1 is not closed: no later line is '---'"
        )
        let alone = promptError { _ = try PromptDocument(parsing: "---", file: "t.prompt") }
        #expect(alone?.kind == .unclosedFrontmatter)
    }

    /// A closing `---` on the last line, with no line break after it, closes the frontmatter
    /// (the body is empty).
    @Test func aClosingLineAtTheEndOfTheFileClosesTheFrontmatter() throws {
        let document = try PromptDocument(parsing: "---\nmodel: m\n---", file: "t.prompt")
        #expect(document.template == "")
        #expect(
            JSONValue.object(document.metadata).compactText == #"{"model":"m","ext":{},"raw":{"model":"m"}}"#)
        let untouched = try PromptDocument(parsing: "Hi\n---\n", file: "t.prompt")
        #expect(untouched.template == "Hi\n---\n")
    }

    /// Dotprompt's parser takes blank and `#` lines (a license header) before the first `---`;
    /// after such a header an unclosed `---` is text, as there.
    @Test func aHeaderBeforeTheFrontmatterIsSkippedAndLinesStillCount() throws {
        let source = "# Copyright 2026 Acme\n\n---\nmodel: m\nconfig:\n  temperature: hot\n---\nHi {{x}}"
        let document = try PromptDocument(parsing: source, file: "t.prompt")
        #expect(document.template == "Hi {{x}}")
        #expect(document.templateLineOffset == 7)
        #expect(document.raw?.compactText == #"{"model":"m","config":{"temperature":"hot"}}"#)
        #expect(document.locations[["config", "temperature"]] == PromptLocation(line: 6, column: 16))
        let yaml = promptError {
            _ = try PromptDocument(parsing: "# c\n---\nmodel: [a\n---\nHi", file: "t.prompt")
        }
        #expect(yaml?.description == "t.prompt:4:1: YAML: did not find expected ',' or ']'")
        let text = try PromptDocument(parsing: "# Title\n---\nHi\n", file: "t.prompt")
        #expect(text.raw == nil)
        #expect(text.template == "# Title\n---\nHi\n")
    }

    @Test func aPartialThatIncludesItselfStopsWithTheChainAtItsInclusion() {
        let error = promptError {
            _ = try rendered("Hi {{> self}}", partials: ["self": "again\n  {{> self}}"])
        }
        #expect(
            error
                == PromptError(
                    .partialDepth,
                    "partial 'self' includes itself (self > self): partials nest at most 32 levels deep",
                    file: "_self.prompt", line: 2, column: 3))
        let pair = promptError { _ = try rendered("{{> a}}", partials: ["a": "{{> b}}", "b": "x {{> a}}"]) }
        #expect(
            pair?.description
                == "_b.prompt:1:3: partial 'a' includes itself (a > b > a): partials nest at most 32 levels deep"
        )
    }

    /// Recursion that ends (a tree walked by a partial) is Handlebars' and still renders.
    @Test func aPartialThatRecursesToAnEndStillRenders() throws {
        let tree = #"{"name": "a", "kids": [{"name": "b", "kids": [{"name": "c"}]}]}"#
        let partials = ["node": "{{name}}({{#each kids}}{{> node}}{{/each}})"]
        #expect(try text("{{> node}}", input: tree, partials: partials) == "a(b(c()))")
    }

    @Test func errorsInsideAPartialNameThePartialsFileBesideTheTemplate() {
        let helper = promptError { _ = try rendered("Hi {{> p}}", partials: ["p": "one\n{{shout x}}"]) }
        #expect(helper?.description == "_p.prompt:2:1: unknown helper 'shout'")
        let unknown = promptError { _ = try rendered("Hi {{> p}}", partials: ["p": "{{> q}}"]) }
        #expect(unknown?.description == "_p.prompt:1:1: unknown partial 'q'")
        let renderer = TemplateRenderer(file: "prompts/card.prompt") { _ in nil }
        #expect(renderer.partialFile("sig") == "prompts/_sig.prompt")
    }

    @Test func frontmatterValuesKnowWhereTheyStart() throws {
        let yaml = "model: m\nconfig:\n  temperature: hot\n  stop: [x, y]\n"
        let (value, locations) = try YAMLReader.readWithLocations(yaml, file: "t", lineOffset: 1)
        #expect(value["config"]?["temperature"] == .string("hot"))
        #expect(locations[["model"]] == PromptLocation(line: 2, column: 8))
        #expect(locations[["config"]] == PromptLocation(line: 4, column: 3))
        #expect(locations[["config", "temperature"]] == PromptLocation(line: 4, column: 16))
        #expect(locations[["config", "stop", "1"]] == PromptLocation(line: 5, column: 13))
        let document = try PromptDocument(parsing: "---\n" + yaml + "---\nHi", file: "t")
        #expect(document.locations[["config", "temperature"]] == PromptLocation(line: 4, column: 16))
    }

    @Test(arguments: [
        ("[1, 2]", #"expected a JSON object {"input", "context", "messages", "docs"}, got an array"#),
        (
            #"{"name": "Ann"}"#,
            #"unknown member 'name': the data is {"input", "context", "messages", "docs"}, and the template's values go in "input""#
        ),
        (#"{"input": "Ann"}"#, "$.input: expected an object, got a string"),
        (#"{"context": []}"#, "$.context: expected an object, got an array"),
        (#"{"messages": {}}"#, "$.messages: expected an array of messages, got an object"),
        (#"{"messages": ["hi"]}"#, #"$.messages[0]: expected a message {"role", "content"}, got a string"#),
        (#"{"messages": [{"content": []}]}"#, "$.messages[0].role: expected a string, got null"),
        (
            #"{"messages": [{"role": "user", "content": "hi"}]}"#,
            "$.messages[0].content: expected an array of parts, got a string"
        ),
        (#"{"docs": 3}"#, "$.docs: expected an array, got a number"),
    ])
    func dataOfTheWrongShapeIsRefused(data: String, message: String) throws {
        let value = try JSONValue(parsing: data)
        let error = promptError {
            try PromptData.check(value, file: "--data", location: PromptLocation(line: 1, column: 2))
        }
        #expect(error == PromptError(.data, message, file: "--data", line: 1, column: 2))
    }

    @Test func dataOfTheRightShapePasses() throws {
        let value = try JSONValue(
            parsing:
                #"{"input": {"a": 1}, "context": {"state": {}}, "messages": [{"role": "user", "content": [{"text": "x"}]}], "docs": [], "input": null}"#
        )
        #expect(
            promptError {
                try PromptData.check(value, file: "d", location: PromptLocation(line: 1, column: 1))
            } == nil)
    }
}
