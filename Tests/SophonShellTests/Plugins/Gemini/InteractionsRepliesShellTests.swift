import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `set api interactions` where it met generateContent's rules (docs/interactions.md): media
/// in a reply saved the same way, a continued interaction refused with 403 treated as one
/// that expired, `tokens` counting the turn the Interactions API would get. The real binary
/// against scripts/fake_gemini.py.
@Suite(.childSlots) struct InteractionsRepliesShellTests {
    @Test(arguments: [false, true])
    func replyMediaIsSavedAsAGenerateContentReplysIs(streamed: Bool) async throws {
        let shell = try await GeminiShell()
        let png = GeminiShellMediaTests.png
        try await InteractionsShellTests.interactionsQueue(
            shell,
            [
                #"{"steps": [{"type": "model_output", "content": [{"type": "text", "text": "A cat."}, "#
                    + #"{"type": "image", "data": "\#(png.base64EncodedString())", "mime_type": "image/png"}]}]}"#
            ])
        let outcome = try await shell.run([
            "--json", "-c", "set api interactions", "-c", "set stream \(streamed ? "on" : "off")", "-c",
            "ask Draw a cat",
        ])
        let name = "image-\(SHA256.hexDigest(png).prefix(16)).png"
        let path = shell.home.appendingPathComponent("media").appendingPathComponent(name).path
        #expect(outcome.stderr == "saved image/png, 2 KB: \(path)\n")
        #expect(outcome.status == 0)
        #expect(FileManager.default.contents(atPath: path) == png)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let reply = try JSONValue(parsing: try #require(lines.last))
        #expect(reply["command"] == .string("ask Draw a cat"))
        #expect(reply["result"] == .string("A cat."))
        #expect(
            reply["media"]
                == .array([
                    .object([
                        JSONMember("mimeType", .string("image/png")), JSONMember("path", .string(path)),
                        JSONMember("bytes", .integer(2008)),
                    ])
                ]))
        #expect(try await shell.server.requests().count == 1)
    }

    @Test func aContinuedInteractionRefusedWith403IsTreatedAsExpired() async throws {
        let shell = try await GeminiShell()
        try await InteractionsShellTests.interactionsQueue(
            shell,
            [
                #"{"text": "Two dogs."}"#,
                #"{"fault": "permission_denied", "message": "The caller does not own this interaction."}"#,
                #"{"text": "Eight paws."}"#,
            ])
        let outcome = try await shell.run([
            "-c",
            "set api interactions\nset stream off\nchat I have 2 dogs.\nchat How many paws?\nchat How many paws?",
        ])
        let sent = try await shell.server.requests()
        #expect(sent.count == 3)
        let id = try #require(sent[1].body["previous_interaction_id"]?.stringValue)
        #expect(
            outcome.stderr
                == "-c:1:4: error: interaction \(id) is no longer on the server (expired, deleted, or made with store off) "
                + "and the conversation cannot continue from it (HTTP 403: The caller does not own this interaction.); "
                + "the conversation's 2 steps are kept here: the next chat sends them whole "
                + "('set store off' keeps sending them without storing), or 'reset' starts over\n")
        #expect(outcome.stdout == "Two dogs.\nEight paws.\n")
        #expect(sent[2].body["previous_interaction_id"] == nil)
        #expect(sent[2].body["store"] == nil)
        #expect(
            sent[2].body["input"]?.compactText
                == #"[{"type":"user_input","content":[{"type":"text","text":"I have 2 dogs."}]},"#
                + #"{"type":"model_output","content":[{"type":"text","text":"Two dogs."}]},"#
                + #"{"type":"user_input","content":[{"type":"text","text":"How many paws?"}]}]"#)
    }

    @Test(arguments: ["generate-content", "interactions"])
    func tokensCountsTheTurnTheAPIWouldGetThroughCountTokens(api: String) async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set api \(api)\nset temperature 0.5\nset system Be brief.\ntokens how many tokens here",
        ])
        #expect(outcome.stdout == "6\n")
        #expect(
            outcome.stderr
                == (api == "interactions"
                    ? "note: temperature is not sent: the Interactions API has no such setting\n" : ""))
        #expect(outcome.status == 0)
        let sent = try await shell.server.requests()
        #expect(sent.map(\.path) == ["/v1beta/models/gemini-3.8-flash:countTokens"])
        let counted = sent.first?.body["generateContentRequest"]
        #expect(counted?["systemInstruction"]?["parts"]?[0]?["text"] == .string("Be brief."))
        #expect(
            counted?["generationConfig"]?.compactText
                == (api == "interactions" ? nil : #"{"temperature":0.5}"#))
    }

    /// Each left-out setting is named as `set` names it, not by its request field (`top-p`,
    /// not `topP`), and nothing of them is sent.
    @Test func theNotesNameTheSettingsAsSetDoes() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c",
            "set api interactions\nset temperature 0.5\nset top-p 0.9\nset top-k 5\n"
                + "set presence-penalty 0.5\nset frequency-penalty 0.5\n"
                + "set safety HARM_CATEGORY_HARASSMENT=BLOCK_ONLY_HIGH\nset thinking 1024\n"
                + "set media-resolution low\nset response-modalities text\nask hi",
        ])
        #expect(
            outcome.stderr == """
                note: temperature is not sent: the Interactions API has no such setting
                note: top-p is not sent: the Interactions API has no such setting
                note: top-k is not sent: the Interactions API has no such setting
                note: presence-penalty is not sent: the Interactions API has no such setting
                note: frequency-penalty is not sent: the Interactions API has no such setting
                note: response-modalities is not sent: the Interactions API has no such setting
                note: media-resolution is not sent: the Interactions API has no such setting
                note: a thinking budget is not sent: the Interactions API has no such setting
                note: safety is not sent: the Interactions API has no such setting

                """)
        #expect(outcome.stdout == "Hello from the fake Interactions API: hi\n")
        #expect(outcome.status == 0)
        let sent = try await shell.server.requests()
        #expect(sent.map(\.path) == ["/v1beta/interactions"])
        #expect(sent.first?.body.compactText == #"{"model":"gemini-3.8-flash","input":"hi","stream":true}"#)
    }
}
