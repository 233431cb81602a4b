import Foundation
import SophonCore
import Testing

@testable import SophonPrompt

/// Frontmatter, metadata, options, variants, file partials and errors with locations.
@Suite struct PromptDocumentTests {
    @Test func frontmatterSplitsIntoMetadataExtAndRaw() throws {
        let source =
            "---\nmodel: m\nconfig:\n  temperature: 0.5\nacme.team.owner: ops\nnote: x\n---\n\nHello\n"
        let document = try PromptDocument(parsing: source, file: "f.prompt")
        #expect(document.template == "Hello")
        #expect(document.templateLineOffset == 8)
        #expect(
            JSONValue.object(document.metadata).compactText
                == #"{"model":"m","config":{"temperature":0.5},"ext":{"acme.team":{"owner":"ops"}},"raw":{"model":"m","config":{"temperature":0.5},"acme.team.owner":"ops","note":"x"}}"#
        )
    }

    /// A scalar as the file writes it, up to a flow indicator or a comment (what the core
    /// schema reads as `null` or a number: `.nan`, `1e2`).
    @Test func writtenGivesAScalarAsTheFileWritesIt() throws {
        let source =
            "# header\n---\nconfig: {temperature: .nan, topK: 1e2}\nseed: -2E0 # why\nlist: [a, b]\n---\nHi"
        let document = try PromptDocument(parsing: source, file: "f.prompt")
        #expect(document.raw?["config"]?.compactText == #"{"temperature":null,"topK":1e2}"#)
        #expect(document.written(at: ["config", "temperature"]) == ".nan")
        #expect(document.written(at: ["config", "topK"]) == "1e2")
        #expect(document.written(at: ["seed"]) == "-2E0")
        #expect(document.written(at: ["list", "1"]) == "b")
        #expect(document.written(at: ["nowhere"]) == nil)
    }

    @Test func yamlScalarsAreTypedAndQuotedOnesStayStrings() throws {
        let value = try YAMLReader.read("a: 1\nb: '1'\nc: true\nd: ~\ne: [x, 2.5]\n", file: "y")
        #expect(value.compactText == #"{"a":1,"b":"1","c":true,"d":null,"e":["x",2.5]}"#)
    }

    /// The YAML 1.2 core schema's numbers (§10.3.2), as Dotprompt's JS `yaml` package reads
    /// them, printed as JSON; what the schema does not call a number, and any quoted scalar,
    /// stays a string.
    @Test(arguments: [
        (".5", "0.5"), ("-.5", "-0.5"), ("+.5", "0.5"), ("1.", "1"), ("-1.", "-1"), ("1.e3", "1e3"),
        ("0x10", "16"), ("0xFf", "255"), ("0o17", "15"), ("007", "7"), ("-007", "-7"), ("+12", "12"),
        ("0", "0"), ("00.50", "0.50"), ("2.5E-3", "2.5E-3"), (".5e+2", "0.5e+2"), ("1e400", "1e400"),
        ("0x10000000000000000", "1.8446744073709552e19"),
        (".inf", "1e999"), ("+.Inf", "1e999"), ("-.INF", "-1e999"), (".nan", "null"), (".NaN", "null"),
        ("'.5'", #"".5""#), (#""0x10""#, #""0x10""#), ("'.inf'", #"".inf""#),
        ("-0x10", #""-0x10""#), ("0o8", #""0o8""#), ("0x", #""0x""#), ("0xg", #""0xg""#), (".", #"".""#),
        ("-.nan", #""-.nan""#), (".Nan", #"".Nan""#), ("inf", #""inf""#), ("1e", #""1e""#),
        ("1_000", #""1_000""#), ("1.2.3", #""1.2.3""#), ("0b11", #""0b11""#), ("e5", #""e5""#),
    ])
    func coreSchemaNumbers(written: String, json: String) throws {
        let value = try YAMLReader.read("a: \(written)\n", file: "y")
        #expect(value["a"]?.compactText == json)
    }

    /// Aliases are expanded, but not past a million values: ten lines of aliases of aliases (a
    /// "billion laughs") are refused at the alias that crosses the limit, not expanded.
    @Test func aliasesExpandButABillionLaughsIsRefused() throws {
        let value = try YAMLReader.read("a: &x [1, 2]\nb: *x\n", file: "y")
        #expect(value.compactText == #"{"a":[1,2],"b":[1,2]}"#)
        var bomb = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...8 {
            let alias = "*l\(level - 1)"
            bomb +=
                "l\(level): &l\(level) [" + Array(repeating: alias, count: 9).joined(separator: ", ") + "]\n"
        }
        #expect(
            throws: PromptError(
                .yaml,
                #"YAML: the aliases expand past 1000000 values (an alias of aliases repeated, a "billion laughs")"#,
                file: "bomb", line: 7, column: 10)
        ) { try YAMLReader.read(bomb, file: "bomb") }
    }

    @Test func optionsOverrideAndMergeConfigAndDefaultsFillInput() throws {
        let source = "---\nmodel: a\nconfig:\n  temperature: 1\n  topK: 3\n---\nHi {{name}}"
        let value = try rendered(
            source, data: #"{"input": {}}"#,
            options: #"{"model": "b", "config": {"temperature": 0}, "input": {"default": {"name": "D"}}}"#)
        #expect(value["model"] == .string("b"))
        #expect(value["config"]?.compactText == #"{"temperature":0,"topK":3}"#)
        #expect(value["messages"]?[0]?["content"]?[0]?["text"] == .string("Hi D"))
    }

    @Test func schemasInTheFrontmatterBecomeJSONSchema() throws {
        let value = try rendered("---\noutput:\n  format: json\n  schema:\n    answer: string\n---\nQ")
        #expect(
            value["output"]?.compactText
                == #"{"format":"json","schema":{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}}"#
        )
    }

    @Test func variantFilesAndPartialsBesideTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prompt-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(PromptFile.fileName("greet", variant: "formal")).path
        try Data("Dear {{> sig}}".utf8).write(to: URL(fileURLWithPath: path))
        try Data("Sir".utf8).write(to: folder.appendingPathComponent("_sig.prompt"))
        #expect(PromptFile.nameAndVariant(ofFile: path) == ("greet", "formal"))
        let value = try PromptRenderer(partialResolver: PromptFile.partials(besides: path))
            .render(try PromptFile.load(path))
        #expect(value["variant"] == .string("formal"))
        #expect(value["messages"]?[0]?["content"]?[0]?["text"] == .string("Dear Sir"))
    }

    @Test func errorsNameFileLineAndColumn() {
        let yaml = promptError {
            _ = try PromptDocument(parsing: "---\nmodel: m\nconfig: [1,\n---\nHi", file: "p.prompt")
        }
        #expect(yaml?.kind == .yaml)
        #expect(yaml?.description == "p.prompt:4:1: YAML: did not find expected node content")
        let helper = promptError { _ = try rendered("---\nmodel: m\n---\nline\n  {{shout name}}") }
        #expect(helper?.description == "t.prompt:5:3: unknown helper 'shout'")
        // The body is trimmed; an error on its first line still names the file's column.
        let first = promptError { _ = try rendered("---\nmodel: m\n---\n\n  {{shout name}}") }
        #expect(first?.description == "t.prompt:5:3: unknown helper 'shout'")
        let crlf = promptError { _ = try rendered("---\r\nmodel: m\r\n---\r\n \t{{#if a}}x") }
        #expect(crlf?.description == "t.prompt:4:3: '{{#if}}' is not closed")
        let plain = promptError { _ = try rendered("---\nmodel: m\n---\nhi {{shout x}}") }
        #expect(plain?.description == "t.prompt:4:4: unknown helper 'shout'")
        let partial = promptError { _ = try rendered("{{> nowhere}}") }
        #expect(partial?.description == "t.prompt:1:1: unknown partial 'nowhere'")
        let type = promptError { _ = try rendered("---\ninput:\n  schema:\n    w: Widget\n---\nx") }
        #expect(type?.description == "t.prompt:4:8: Picoschema: unknown type 'Widget'")
        let block = promptError { _ = try rendered("{{#if a}}x") }
        #expect(block?.description == "t.prompt:1:1: '{{#if}}' is not closed")
    }
}
