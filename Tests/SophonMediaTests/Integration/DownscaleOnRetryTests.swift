import Foundation
import SophonCore
import SophonGemini
import SophonMedia
import SophonTestSupport
import Testing

/// Downscale on retry over real HTTP against scripts/fake_gemini.py: a transport failure (the
/// server resets the connection), then the next attempt's image parts as the server saw them.
@Suite(.childSlots) struct DownscaleOnRetryTests {
    static let reset = #"{"fault": "reset"}"#
    static let ok = #"{"kind": "generate", "text": "ok"}"#

    /// The inline parts of each request the server saw: MIME type and decoded bytes.
    func run(_ image: Data, replies: [String], policy: GeminiRetryPolicy) async throws -> [(String, Data)] {
        let server = try await FakeGeminiServer(replies: replies)
        var configuration = GeminiClientConfiguration(
            baseURL: server.baseURL, callTimeout: .seconds(600), retryPolicy: policy,
            apiKeyProvider: { "test-key" }, sleep: { _ in }, random: { 0.5 })
        configuration.imageDownscaler = MediaImageDownscaler()
        let client = GeminiAPIClient(configuration: configuration)
        let contents = [
            Content(role: "user", parts: [.inlineData(mimeType: "image/jpeg", data: image), .text("what")])
        ]
        let result = try await client.generateText(label: "media", contents: contents)
        #expect(result.value == "ok")
        return try await server.requests().map { request in
            let blob = request.body["contents"]?[0]?["parts"]?[0]?["inlineData"]
            return (
                blob?["mimeType"]?.stringValue ?? "",
                Data(base64Encoded: blob?["data"]?.stringValue ?? "") ?? Data()
            )
        }
    }

    @Test func aTransportFailureResendsThePhotoUprightAt1536ThenAt768() async throws {
        let original = MediaImageCodecTests.portraitPhoto
        let sent = try await run(original, replies: [Self.reset, Self.reset, Self.ok], policy: .default)
        #expect(sent.count == 3)
        #expect(sent[0].1 == original)
        #expect(sent[1].0 == "image/jpeg")
        #expect(sent[1].1.count < original.count)
        let first = try MediaImageCodec.decode(sent[1].1)
        #expect([first.width, first.height] == [1152, 1536] as [Int])
        let second = try MediaImageCodec.decode(sent[2].1)
        #expect([second.width, second.height] == [576, 768] as [Int])
    }

    @Test func aStreamedAskRetriedBeforeItsFirstChunkSendsTheSmallerImage() async throws {
        let server = try await FakeGeminiServer(replies: [Self.reset, Self.ok])
        var configuration = GeminiClientConfiguration(
            baseURL: server.baseURL, callTimeout: .seconds(600), apiKeyProvider: { "test-key" },
            sleep: { _ in }, random: { 0.5 })
        configuration.imageDownscaler = MediaImageDownscaler()
        let client = GeminiAPIClient(configuration: configuration)
        let original = MediaImageCodecTests.portraitPhoto
        let request = GenerateContentRequest(contents: [
            Content(
                role: "user", parts: [.inlineData(mimeType: "image/jpeg", data: original), .text("what")])
        ])
        var text = ""
        for try await chunk in client.streamGenerateContent(label: "media", request: request) {
            text += chunk.text
        }
        #expect(text == "ok")
        let sent = try await server.requests().map {
            Data(
                base64Encoded: $0.body["contents"]?[0]?["parts"]?[0]?["inlineData"]?["data"]?.stringValue
                    ?? "")
        }
        #expect(sent.count == 2)
        #expect(sent.first == original)
        let resent = try MediaImageCodec.decode(try #require(sent.last ?? nil))
        #expect([resent.width, resent.height] == [1152, 1536] as [Int])
    }

    @Test func theMinimalPolicySendsTheOriginalAgain() async throws {
        let original = MediaImageCodecTests.portraitPhoto
        let sent = try await run(original, replies: [Self.reset, Self.ok], policy: .minimal)
        #expect(sent.map(\.1) == [original, original])
    }

    @Test func aCorruptImageIsSentUnchanged() async throws {
        let corrupt = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 5000))
        let sent = try await run(corrupt, replies: [Self.reset, Self.ok], policy: .default)
        #expect(sent.map(\.0) == ["image/jpeg", "image/jpeg"])
        #expect(sent.map(\.1) == [corrupt, corrupt])
    }

    @Test func anImageThatWouldNotShrinkIsKept() async throws {
        let tiny = try MediaImageCodec.encodeJPEG(
            RGBImage(width: 8, height: 8, pixels: [UInt8](repeating: 128, count: 192)), quality: 20)
        let sent = try await run(tiny, replies: [Self.reset, Self.ok], policy: .default)
        #expect(sent.map(\.1) == [tiny, tiny])
    }
}
