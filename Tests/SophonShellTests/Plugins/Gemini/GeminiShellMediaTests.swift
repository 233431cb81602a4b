import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Media end to end (docs/commands.md, "Media"): the real binary against
/// scripts/fake_gemini.py: large files uploaded once, URLs and `--mime`, `files`, reply media
/// saved with a notice, `set response-modalities`.
@Suite(.childSlots) struct GeminiShellMediaTests {
    /// 8 bytes of PNG signature and 2000 bytes of filler, as base64 (a reply "image").
    static let png = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x78, count: 2000))

    /// A 21 MB "video": an MP4 `ftyp` box, then filler.
    static func writeVideo(_ shell: GeminiShell) throws -> Data {
        var bytes = [UInt8](repeating: 0x41, count: 21_000_000)
        bytes.replaceSubrange(0..<12, with: [0, 0, 0, 0x18] + Array("ftypisom".utf8))
        let data = Data(bytes)
        try data.write(to: shell.home.appendingPathComponent("clip.mp4"))
        return data
    }

    @Test func aLargeFileIsUploadedOnceAndSentAsFileData() async throws {
        let shell = try await GeminiShell()
        let video = try Self.writeVideo(shell)
        let outcome = try await shell.run([
            "-c", "set stream off", "-c", "attach clip.mp4", "-c", "ask What is in it?", "-c",
            "attach clip.mp4",
            "-c", "ask And now?",
        ])
        #expect(outcome.stdout == "Hello from the fake Gemini server.\nHello from the fake Gemini server.\n")
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(
            requests.map { $0.headers["x-goog-upload-command"] ?? $0.path } == [
                "start", "upload", "upload", "upload, finalize",
                "/v1beta/models/gemini-3.8-flash:generateContent",
                "/v1beta/models/gemini-3.8-flash:generateContent",
            ])
        #expect(requests[0].headers["x-goog-upload-header-content-type"] == "video/mp4")
        #expect(requests[0].headers["x-goog-upload-header-content-length"] == String(video.count))
        let part = requests[4].body["contents"]?[0]?["parts"]?[0]
        let uri = part?["fileData"]?["fileUri"]
        #expect(part?["fileData"]?["mimeType"] == .string("video/mp4"))
        #expect(
            uri?.stringValue?.hasPrefix("https://generativelanguage.googleapis.com/v1beta/files/") == true)
        #expect(requests[5].body["contents"]?[0]?["parts"]?[0]?["fileData"]?["fileUri"] == uri)
    }

    @Test func anHTTPSURLAndMimeOverride() async throws {
        let shell = try await GeminiShell()
        try shell.write("notes.bin", "\u{0}\u{1}binary")
        let outcome = try await shell.run([
            "-c", "set stream off", "-c", "attach https://example.com/a.pdf --mime audio/wav notes.bin",
            "-c", "ask Summarise",
        ])
        #expect(outcome.status == 0)
        let parts = try await shell.server.requests().last?.body["contents"]?[0]?["parts"]
        #expect(
            parts
                == (try JSONValue(
                    parsing: #"""
                        [{"fileData": {"fileUri": "https://example.com/a.pdf"}},
                         {"inlineData": {"mimeType": "audio/wav", "data": "AAFiaW5hcnk="}}, {"text": "Summarise"}]
                        """#)))
    }

    /// A turn that fails (a 400) keeps the attachments: the same `ask` again sends them, and
    /// the turn that succeeds clears them (they were dropped by the failed turn).
    @Test func aFailedAskKeepsTheAttachmentsForTheNextAsk() async throws {
        let shell = try await GeminiShell()
        try shell.write("notes.txt", "hello notes\n")
        try await shell.server.script([#"{"fault": "bad_request"}"#])
        let outcome = try await shell.run([
            "-c", "attach notes.txt", "-c", "ask Summarise", "-c", "attach", "-c", "ask Summarise",
            "-c", "attach",
        ])
        #expect(
            outcome.stdout
                == "notes.txt\nHello from the fake Gemini server.\n(nothing attached)\n"
        )
        #expect(outcome.status == 1)
        let notes = #"{"inlineData":{"mimeType":"text/plain","data":"aGVsbG8gbm90ZXMK"}}"#
        let sent = try await shell.server.requests().map {
            $0.body["contents"]?[0]?["parts"]?.compactText ?? ""
        }
        #expect(sent == ["[\(notes),{\"text\":\"Summarise\"}]", "[\(notes),{\"text\":\"Summarise\"}]"])
    }

    @Test func anUnknownTypeIsRefusedWithTheDetectedType() async throws {
        let shell = try await GeminiShell()
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 0]).write(to: shell.home.appendingPathComponent("a.zip"))
        let outcome = try await shell.run(["--json", "-c", "attach a.zip"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains(#""kind":"mediaUnreadable""#))
        #expect(outcome.stdout.contains("unsupported type application/zip"))
    }

    @Test func replyImagesAreSavedAndNoticed() async throws {
        let shell = try await GeminiShell()
        let data = Self.png.base64EncodedString()
        try await shell.server.script([
            #"{"kind": "generate", "text": "A cat.", "inlineData": [{"mimeType": "image/png", "data": "\#(data)"}]}"#
        ])
        let outcome = try await shell.run([
            "--json", "-c", "set response-modalities text,image", "-c", "ask Draw a cat",
        ])
        let name = "image-\(SHA256.hexDigest(Self.png).prefix(16)).png"
        let path = shell.home.appendingPathComponent("media").appendingPathComponent(name).path
        #expect(outcome.stderr == "saved image/png, 2 KB: \(path)\n")
        #expect(outcome.status == 0)
        #expect(FileManager.default.contents(atPath: path) == Self.png)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        let reply = try JSONValue(parsing: try #require(lines.last))
        #expect(
            reply["media"]
                == .array([
                    .object([
                        JSONMember("mimeType", .string("image/png")), JSONMember("path", .string(path)),
                        JSONMember("bytes", .integer(2008)),
                    ])
                ]))
        let config = try await shell.server.requests().last?.body["generationConfig"]
        #expect(config?["responseModalities"] == .array([.string("TEXT"), .string("IMAGE")]))
    }

    /// With tools on (a built-in, or a function the model calls), media in every round's reply
    /// is saved too: beside a function call, and in the answer after `tool-reply`.
    @Test func replyMediaIsSavedWhenToolsAreOn() async throws {
        let shell = try await GeminiShell()
        let data = Self.png.base64EncodedString()
        try await shell.server.script([
            #"{"kind": "generate", "text": "A cat.", "inlineData": [{"mimeType": "image/png", "data": "\#(data)"}]}"#,
            #"{"kind": "generate", "parts": [{"inlineData": {"mimeType": "image/jpeg", "data": "/9j/"}}, {"functionCall": {"id": "c1", "name": "f", "args": {}}}]}"#,
            #"{"kind": "generate", "text": "Done.", "inlineData": [{"mimeType": "audio/wav", "data": "UklGRg=="}]}"#,
        ])
        let outcome = try await shell.run([
            "--json", "-c", "set tools code", "-c", "ask Draw a cat", "-c", "tool f", "-c", "ask Go", "-c",
            "tool-reply f {}",
        ])
        let folder = shell.home.appendingPathComponent("media")
        let png = folder.appendingPathComponent("image-\(SHA256.hexDigest(Self.png).prefix(16)).png").path
        let jpeg = folder.appendingPathComponent(
            "image-\(SHA256.hexDigest(Data([0xFF, 0xD8, 0xFF])).prefix(16)).jpg"
        )
        .path
        let wav = folder.appendingPathComponent("audio-\(SHA256.hexDigest(Data("RIFF".utf8)).prefix(16)).wav")
            .path
        #expect(
            outcome.stderr == """
                saved image/png, 2 KB: \(png)
                saved image/jpeg, 1 KB: \(jpeg)
                saved audio/wav, 1 KB: \(wav)

                """)
        #expect(outcome.status == 0)
        #expect(FileManager.default.contents(atPath: png) == Self.png)
        #expect(FileManager.default.contents(atPath: jpeg) == Data([0xFF, 0xD8, 0xFF]))
        #expect(FileManager.default.contents(atPath: wav) == Data("RIFF".utf8))
        let lines = outcome.stdout.split(separator: "\n").map { try? JSONValue(parsing: String($0)) }
        #expect(lines.count == 5)
        #expect(lines[1]?["media"]?[0]?["path"] == .string(png))
        #expect(lines[3]?["media"]?[0]?["path"] == .string(jpeg))
        #expect(lines[4]?["media"]?[0]?["path"] == .string(wav))
        #expect(lines[4]?["result"] == .string("Done."))
    }

    /// The fake server sends a scripted reply's `inlineData` beside its `functionCalls` (it
    /// dropped them), and what the shell sends back keeps the model turn whole.
    @Test func theFakeSendsMediaBesideScriptedFunctionCalls() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "c1", "name": "f", "args": {}}], "inlineData": [{"mimeType": "image/jpeg", "data": "/9j/"}]}"#,
            #"{"kind": "generate", "text": "Done."}"#,
        ])
        let outcome = try await shell.run(["-c", "tool f", "-c", "ask Go", "-c", "tool-reply f {}"])
        let jpeg = shell.home.appendingPathComponent("media").appendingPathComponent(
            "image-\(SHA256.hexDigest(Data([0xFF, 0xD8, 0xFF])).prefix(16)).jpg"
        ).path
        #expect(outcome.stderr == "saved image/jpeg, 1 KB: \(jpeg)\n")
        #expect(outcome.status == 0)
        let history = try await shell.server.requests().last?.body["contents"]?[1]
        #expect(
            history?.compactText
                == #"{"role":"model","parts":[{"inlineData":{"mimeType":"image/jpeg","data":"/9j/"}},{"functionCall":{"id":"c1","name":"f","args":{}}}]}"#
        )
    }

    @Test func mediaDirAndStreamedImageOnlyReply() async throws {
        let shell = try await GeminiShell()
        let data = Self.png.base64EncodedString()
        try await shell.server.script([
            #"{"kind": "generate", "text": "", "chunks": [""], "inlineData": [{"mimeType": "image/png", "data": "\#(data)"}]}"#
        ])
        let outcome = try await shell.run(["-c", "set media-dir out", "-c", "ask Draw"])
        let path = shell.home.appendingPathComponent("out/image-\(SHA256.hexDigest(Self.png).prefix(16)).png")
            .path
        #expect(outcome.stderr == "saved image/png, 2 KB: \(path)\n")
        #expect(outcome.status == 0)
        #expect(FileManager.default.contents(atPath: path) == Self.png)
    }

    @Test func filesListShowAndDelete() async throws {
        let shell = try await GeminiShell()
        _ = try Self.writeVideo(shell)
        #expect(try await shell.run(["-c", "attach clip.mp4"]).status == 0)
        let listed = try await shell.run(["--json", "-c", "files"])
        let value = try JSONValue(parsing: listed.stdout)
        let name = try #require(value["result"]?[0]?["name"]?.stringValue)
        #expect(value["result"]?[0]?["displayName"] == .string("clip.mp4"))
        #expect(value["result"]?[0]?["sizeBytes"] == .string("21000000"))
        let shown = try await shell.run(["-c", "files show \(name)"])
        #expect(shown.status == 0)
        #expect(try JSONValue(parsing: shown.stdout)["state"] == .string("ACTIVE"))
        let deleted = try await shell.run(["-c", "files delete --all", "-c", "files"])
        #expect(deleted.stdout == "(no files)\n")
        #expect(deleted.status == 0)
        let missing = try await shell.run(["--json", "-c", "files show \(name)"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains(#""kind":"fileNotFound""#))
    }

    /// Issue 25 point 4: a file error keeps the server's status line.
    @Test func aFileThatIsNotYoursKeepsTheStatusLine() async throws {
        let shell = try await GeminiShell()
        #expect(
            try await shell.run(["-c", "files delete files/nope"])
                == .init(
                    stdout: "",
                    stderr: """
                        -c:1:1: error: files delete: File files/nope does not exist, has expired or is not yours: \
                        HTTP 403 PERMISSION_DENIED: You do not have permission to access the File nope or it may not exist.

                        """, status: 1))
    }
}
