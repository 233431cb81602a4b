import SophonCore
import Testing

@testable import SophonPrompt

/// Dotprompt's helpers and how markers become messages and parts.
@Suite struct PromptHelpersTests {
    @Test func roleStartsMessagesAndBlankTextIsDropped() throws {
        let value = try rendered("{{role \"system\"}}Be brief.\n{{role \"user\"}}Hi\n")
        #expect(
            value["messages"]?.compactText
                == #"[{"role":"system","content":[{"text":"Be brief.\n"}]},{"role":"user","content":[{"text":"Hi\n"}]}]"#
        )
    }

    @Test func historyGoesWhereTheHelperIsWithPurposeMetadata() throws {
        let data = #"{"messages": [{"role": "user", "content": [{"text": "q"}]}]}"#
        let value = try rendered("{{role \"system\"}}S{{history}}{{role \"user\"}}U", data: data)
        #expect(
            value["messages"]?.compactText
                == #"[{"role":"system","content":[{"text":"S"}]},{"role":"user","content":[{"text":"q"}],"metadata":{"purpose":"history"}},{"role":"user","content":[{"text":"U"}]}]"#
        )
    }

    @Test func historyWithoutTheHelperGoesBeforeTheLastUserMessage() throws {
        let data = #"{"messages": [{"role": "model", "content": [{"text": "a"}]}]}"#
        let value = try rendered("Now", data: data)
        #expect(
            value["messages"]?.compactText
                == #"[{"role":"model","content":[{"text":"a"}]},{"role":"user","content":[{"text":"Now"}]}]"#)
    }

    @Test func mediaAndSectionParts() throws {
        let value = try rendered(
            "See {{media url=u contentType=\"image/png\"}}{{section \"code\"}}x",
            input: #"{"u": "https://e/i.png"}"#)
        #expect(
            value["messages"]?[0]?["content"]?.compactText
                == #"[{"text":"See "},{"media":{"url":"https://e/i.png","contentType":"image/png"}},{"metadata":{"purpose":"code","pending":true}},{"text":"x"}]"#
        )
        let bare = try rendered("{{media url=\"u\"}}")
        #expect(bare["messages"]?[0]?["content"]?.compactText == #"[{"media":{"url":"u"}}]"#)
    }

    @Test func jsonPrintsAsJavaScriptDoes() throws {
        #expect(try text("{{json this}}", input: #"{"a": [1, {"b": null}]}"#) == #"{"a":[1,{"b":null}]}"#)
        #expect(
            try text("{{json this indent=2}}", input: #"{"a": [], "b": {}}"#)
                == "{\n  \"a\": [],\n  \"b\": {}\n}")
    }

    @Test func ifEqualsAndUnlessEquals() throws {
        #expect(
            try text("{{#ifEquals a b}}same{{else}}differ{{/ifEquals}}", input: #"{"a": 1, "b": 1}"#)
                == "same")
        #expect(
            try text("{{#ifEquals a \"1\"}}same{{else}}differ{{/ifEquals}}", input: #"{"a": 1}"#) == "differ")
        #expect(
            try text("{{#unlessEquals a b}}differ{{/unlessEquals}}", input: #"{"a": "x", "b": "y"}"#)
                == "differ")
    }
}
