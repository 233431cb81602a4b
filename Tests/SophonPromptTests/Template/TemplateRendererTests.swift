import SophonCore
import Testing

@testable import SophonPrompt

/// Each Handlebars construct of the subset (PRODUCT §12), with exact output.
@Suite struct TemplateRendererTests {
    @Test func variablesAndPathsPrintWithoutEscaping() throws {
        #expect(
            try text("Hi {{name}} <{{user.city}}>", input: #"{"name": "A&B", "user": {"city": "Oslo"}}"#)
                == "Hi A&B <Oslo>")
        #expect(try text("[{{missing}}][{{{name}}}]", input: #"{"name": "<b>"}"#) == "[][<b>]")
        #expect(
            try text("{{n}} {{flag}} {{list}}", input: #"{"n": 2.5, "flag": false, "list": [1, "x"]}"#)
                == "2.5 false 1,x")
    }

    /// Handlebars' escapes: `\{{` is text up to the next `{{` (the backslash dropped), `\\{{`
    /// is one backslash and the tag; a backslash elsewhere stays.
    @Test(arguments: [
        (#"Say \{{name}} to {{name}}."#, "Say {{name}} to Ann."),
        (#"a \\{{name}} b"#, #"a \Ann b"#),
        (#"\{{#if x}}{{name}}\{{/if}}"#, "{{#if x}}Ann{{/if}}"),
        (#"C:\dir {{name}} \n"#, #"C:\dir Ann \n"#),
        (#"end \{{"#, "end {{"),
        (#"\{{a}}\{{b}}"#, "{{a}}{{b}}"),
        (#"\{{name}}\\{{name}}"#, #"{{name}}\Ann"#),
    ])
    func backslashEscapesAMustache(template: String, expected: String) throws {
        #expect(try text(template, input: #"{"name": "Ann"}"#) == expected)
    }

    @Test func ifUnlessAndElse() throws {
        let template = "{{#if on}}yes{{else}}no{{/if}}/{{#unless on}}off{{/unless}}"
        #expect(try text(template, input: #"{"on": true}"#) == "yes/")
        #expect(try text(template, input: #"{"on": 0}"#) == "no/off")
        #expect(try text(template, input: #"{"on": []}"#) == "no/off")
        #expect(try text("{{#if a}}A{{else if b}}B{{else}}C{{/if}}", input: #"{"b": 1}"#) == "B")
    }

    @Test func eachOverArraysAndObjects() throws {
        let array = "{{#each items}}{{@index}}:{{this}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}} {{/each}}"
        #expect(try text(array, input: #"{"items": ["a", "b", "c"]}"#) == "0:aF 1:b 2:cL ")
        #expect(
            try text("{{#each o}}{{@key}}={{this}};{{/each}}", input: #"{"o": {"x": 1, "y": 2}}"#)
                == "x=1;y=2;")
        #expect(try text("{{#each items}}x{{else}}none{{/each}}", input: #"{"items": []}"#) == "none")
        #expect(
            try text(
                "{{#each items}}{{name}}@{{../place}} {{/each}}",
                input: #"{"items": [{"name": "a"}], "place": "p"}"#) == "a@p ")
    }

    @Test func withChangesTheContext() throws {
        #expect(try text("{{#with user}}{{name}}{{/with}}", input: #"{"user": {"name": "Ann"}}"#) == "Ann")
        #expect(try text("{{#with user}}{{name}}{{else}}nobody{{/with}}", input: "{}") == "nobody")
    }

    @Test func commentsAndWhitespaceControl() throws {
        #expect(try text("a{{! note }}b{{!-- long }} --}}c") == "abc")
        #expect(try text("a  {{~name~}}  b", input: #"{"name": "X"}"#) == "aXb")
    }

    @Test func standaloneBlockLinesLeaveNoBlankLines() throws {
        let template = "List:\n{{#each items}}\n- {{this}}\n{{/each}}\nEnd"
        #expect(try text(template, input: #"{"items": [1, 2]}"#) == "List:\n- 1\n- 2\nEnd")
    }

    @Test func partialsFromTheRegistryWithContextAndHash() throws {
        let partials = ["card": "[{{name}}]", "hello": "Hello, {{who}}!"]
        #expect(try text("{{> card}}", input: #"{"name": "n"}"#, partials: partials) == "[n]")
        #expect(try text("{{> card user}}", input: #"{"user": {"name": "u"}}"#, partials: partials) == "[u]")
        #expect(
            try text("{{> hello who=name}}", input: #"{"name": "Bo"}"#, partials: partials) == "Hello, Bo!")
    }

    @Test func contextMembersAreDataVariables() throws {
        let value = try rendered("count {{@state.count}}", data: #"{"context": {"state": {"count": 3}}}"#)
        #expect(value["messages"]?[0]?["content"]?[0]?["text"] == .string("count 3"))
    }
}
