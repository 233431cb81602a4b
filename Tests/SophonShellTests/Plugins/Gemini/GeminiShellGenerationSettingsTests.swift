import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `top-p` ... `media-resolution` end to end: the real binary against scripts/fake_gemini.py
/// over HTTP, checking the request the server saw (docs/commands.md, "Settings").
@Suite(.childSlots) struct GeminiShellGenerationSettingsTests {
    static let settingLines = [
        "set top-p 0.9", "set top-k 40", "set seed 42", "set stop \"###\" END", "set presence-penalty 0.5",
        "set frequency-penalty -1.5",
        "set safety HARM_CATEGORY_HARASSMENT=BLOCK_ONLY_HIGH harm_category_hate_speech=off",
        "set safety HARM_CATEGORY_HARASSMENT=BLOCK_NONE", "set response-modalities text,image",
        "set media-resolution low",
    ]

    static let expectedConfig = #"""
        {"stopSequences": ["###", "END"], "topP": 0.9, "topK": 40, "seed": 42,
         "presencePenalty": 0.5, "frequencyPenalty": -1.5, "responseModalities": ["TEXT", "IMAGE"],
         "mediaResolution": "MEDIA_RESOLUTION_LOW"}
        """#

    static let expectedSafety = #"""
        [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"},
         {"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "OFF"}]
        """#

    static func commands(_ lines: [String]) -> [String] { lines.flatMap { ["-c", $0] } }

    @Test(arguments: ["on", "off"])
    func everySettingIsSentUnderTheAPIsName(stream: String) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hi."}"#])
        let outcome = try await shell.run(
            Self.commands(Self.settingLines + ["set stream \(stream)", "ask Say hi"]))
        #expect(outcome.stderr == "")
        #expect(outcome.stdout == "Hi.\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        let body = requests[0].body
        #expect(body["generationConfig"] == (try JSONValue(parsing: Self.expectedConfig)))
        #expect(body["safetySettings"] == (try JSONValue(parsing: Self.expectedSafety)))
    }

    @Test func clearedSettingsAreNotSent() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hi."}"#])
        let outcome = try await shell.run(
            Self.commands(
                Self.settingLines + [
                    "set top-p default", "set top-k default", "set seed default", "set stop none",
                    "set presence-penalty default", "set frequency-penalty default", "set safety default",
                    "set response-modalities default", "set media-resolution default", "ask Say hi",
                ]))
        #expect(outcome.status == 0)
        let body = try #require(try await shell.server.requests().first?.body)
        #expect(body["generationConfig"] == nil)
        #expect(body["safetySettings"] == nil)
    }

    /// `set NAME default` clears temperature, max-tokens and thinking too: `show` prints
    /// `default` again and the request carries no `generationConfig`.
    @Test func temperatureMaxTokensAndThinkingAcceptDefault() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hi."}"#])
        let outcome = try await shell.run(
            Self.commands([
                "set temperature 0.4", "set max-tokens 100", "set thinking 512", "set temperature default",
                "set max-tokens DEFAULT", "set thinking default", "show temperature", "show max-tokens",
                "show thinking", "ask Say hi",
            ]))
        #expect(outcome == .init(stdout: "default\ndefault\ndefault\nHi.\n", stderr: "", status: 0))
        let body = try #require(try await shell.server.requests().first?.body)
        #expect(body["generationConfig"] == nil)
    }

    @Test func showListsEverySetting() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(Self.commands(Self.settingLines + ["show"]))
        #expect(
            outcome.stdout == """
                model: gemini-3.8-flash
                temperature: default
                max-tokens: default
                system: 
                stream: on
                output: pretty
                bail: off
                echo: off
                thinking: default
                timeout: 3m
                language: en
                dry-run: off
                top-p: 0.9
                top-k: 40
                seed: 42
                stop: "###" END
                presence-penalty: 0.5
                frequency-penalty: -1.5
                safety: HARM_CATEGORY_HARASSMENT=BLOCK_NONE HARM_CATEGORY_HATE_SPEECH=OFF
                response-modalities: text,image
                media-resolution: low
                media-dir: default
                budget: off
                api: generate-content
                store: on
                cache: off
                service-tier: default
                backend: developer
                tools: none
                tool-mode: auto
                tool-rounds: 10
                tool-timeout: 1m
                tool-confirm: on
                log: on
                embed-model: gemini-embedding-001
                judge-model: gemini-3.8-flash

                """)
        #expect(outcome.status == 0)
        let names = [
            "top-p", "top-k", "seed", "stop", "presence-penalty", "frequency-penalty", "safety",
            "response-modalities", "media-resolution",
        ]
        let fresh = try await shell.run(Self.commands(names.map { "show \($0)" }))
        #expect(
            fresh.stdout == "default\ndefault\ndefault\nnone\ndefault\ndefault\ndefault\ndefault\ndefault\n")
    }

    @Test(arguments: [
        ("set top-p 1.5", "set top-p: expected a number in 0...1, got '1.5'"),
        ("set top-p -0.1", "set top-p: expected a number in 0...1, got '-0.1'"),
        ("set top-k 0", "set top-k: expected a whole number in 1...2147483647, got '0'"),
        ("set top-k 2.5", "set top-k: expected a whole number in 1...2147483647, got '2.5'"),
        (
            "set seed 2147483648",
            "set seed: expected a whole number in -2147483648...2147483647, got '2147483648'"
        ),
        ("set stop a b c d e f", "set stop: expected at most 5 stop sequences, got 6"),
        ("set stop \"\"", "set stop: expected non-empty stop sequences, got ''"),
        (
            "set presence-penalty 2",
            "set presence-penalty: expected a number in -2...2 (2 itself excluded), got '2'"
        ),
        (
            "set frequency-penalty -2.5",
            "set frequency-penalty: expected a number in -2...2 (2 itself excluded), got '-2.5'"
        ),
        (
            "set safety HARM_CATEGORY_HARASMENT=OFF",
            "set safety: expected a category (HARM_CATEGORY_HARASSMENT, HARM_CATEGORY_HATE_SPEECH, "
                + "HARM_CATEGORY_SEXUALLY_EXPLICIT, HARM_CATEGORY_DANGEROUS_CONTENT, "
                + "HARM_CATEGORY_CIVIC_INTEGRITY), got 'HARM_CATEGORY_HARASMENT' "
                + "(did you mean 'HARM_CATEGORY_HARASSMENT'?)"
        ),
        (
            "set safety HARM_CATEGORY_HARASSMENT=NEVER",
            "set safety: expected a threshold (BLOCK_LOW_AND_ABOVE, BLOCK_MEDIUM_AND_ABOVE, "
                + "BLOCK_ONLY_HIGH, BLOCK_NONE, OFF), got 'NEVER'"
        ),
        ("set safety strict", "set safety: expected CATEGORY=THRESHOLD (or default), got 'strict'"),
        (
            "set response-modalities video",
            "set response-modalities: expected text, image, audio (comma-separated) or default, got 'video'"
        ),
        (
            "set media-resolution ultra",
            "set media-resolution: expected low, medium, high or default, got 'ultra'"
        ),
    ])
    func anOutOfRangeValueIsRefusedWithWhatIsAccepted(line: String, message: String) async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", line, "--json", "-c", "show"])
        #expect(outcome.stderr == "-c:1:1: error: \(message)\n")
        #expect(outcome.status == 1)
    }

    @Test func aRefusedValueLeavesTheSettingAsItWas() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set top-p 0.5", "-c", "set top-p 2", "-c", "show top-p", "-c",
            "set safety HARM_CATEGORY_HARASSMENT=OFF",
            "-c", "set safety HARM_CATEGORY_HATE_SPEECH=OFF HARM_CATEGORY_HARASSMENT=NEVER", "-c",
            "show safety",
        ])
        #expect(outcome.stdout == "0.5\nHARM_CATEGORY_HARASSMENT=OFF\n")
        #expect(outcome.status == 1)
    }

    @Test func penaltiesAreLeftOutWithANoteForAModelThatDoesNotTakeThem() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hi."}"#])
        let outcome = try await shell.run(
            Self.commands([
                "set model gemini-2.5-flash", "set presence-penalty 0.5", "set frequency-penalty 0.25",
                "set seed 7", "ask Say hi",
            ]))
        #expect(
            outcome.stderr == """
                note: gemini-2.5-flash does not take presence-penalty (penalties are not enabled for it): not sent
                note: gemini-2.5-flash does not take frequency-penalty (penalties are not enabled for it): not sent

                """)
        #expect(outcome.stdout == "Hi.\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.map(\.path) == ["/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"])
        #expect(requests.first?.body["generationConfig"] == .object([JSONMember("seed", .integer(7))]))
    }

    @Test func anOutputAModelCannotMakeIsRefusedBeforeSending() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(
            Self.commands([
                "set model gemini-2.5-pro", "set response-modalities text,image", "ask Draw a cat",
            ]))
        #expect(
            outcome.stderr
                == "-c:3:1: error: response-modalities: gemini-2.5-pro answers in text only, not image\n")
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }
}
