import Foundation
import Testing

@testable import SophonGemini

/// Media sniffing and the inline size limits.
@Suite struct MediaTests {
    @Test(
        arguments: [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "image/png"),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], "image/jpeg"),
            (Array("GIF89a..".utf8), "image/gif"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "image/webp"),
            (Array("%PDF-1.7\n".utf8), "application/pdf"),
            ([0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}".utf8), "image/heic"),
            (Array("Plain text, café.\n".utf8), "text/plain"),
            ([0xC3, 0x28, 0x41], nil),
            ([0x41, 0x00, 0x42], nil),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8), nil),
        ] as [([UInt8], String?)])
    func sniff(bytes: [UInt8], expected: String?) {
        #expect(GeminiMedia.sniffMIMEType(Data(bytes)) == expected)
    }

    func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-media-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    /// Google's 20 MB inline limit is one value, 20,000,000 bytes, for media per request and
    /// for a Batch create's inline body (PRODUCT.md §8 says the number).
    @Test func theInlineLimitIsTwentyMillionBytesEverywhere() throws {
        #expect(GeminiInlineLimit.bytes == 20_000_000)
        #expect(GeminiClientConfiguration().maxInlineMediaBytes == 20_000_000)
        #expect(GeminiClientConfiguration().inlineMediaLimit == 20_000_000)
        #expect(GeminiBatchInput.defaultInlineLimit == 20_000_000)
        let text = Data(repeating: 0x61, count: 20_000_000)
        #expect(try GeminiMedia.inlinePart(data: text, name: "a.txt").inlineData?.mimeType == "text/plain")
        #expect(throws: GeminiError.mediaTooLarge(path: "b.txt", bytes: 20_000_001, limit: 20_000_000)) {
            _ = try GeminiMedia.inlinePart(data: text + Data([0x61]), name: "b.txt")
        }
    }

    @Test func partsAndLimits() throws {
        let png = try temporaryFile(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 92))
        let text = try temporaryFile(Array("hello".utf8))
        defer {
            try? FileManager.default.removeItem(at: png)
            try? FileManager.default.removeItem(at: text)
        }
        var configuration = GeminiClientConfiguration(maxMediaParts: 2, maxInlineMediaBytes: 105)
        let parts = try GeminiMedia.inlineParts(contentsOf: [png, text], configuration: configuration)
        #expect(parts.map { $0.inlineData?.mimeType } == ["image/png", "text/plain"])
        #expect(parts.first?.inlineData?.data.count == 100)
        configuration.maxInlineMediaBytes = 104
        #expect(throws: GeminiError.mediaTooLarge(path: text.path, bytes: 5, limit: 4)) {
            _ = try GeminiMedia.inlineParts(contentsOf: [png, text], configuration: configuration)
        }
        configuration.maxMediaParts = 1
        #expect(
            throws: GeminiError.invalidRequest(
                message: "Too many media files: 2 (the limit is 1).", fieldViolations: [])
        ) {
            _ = try GeminiMedia.inlineParts(contentsOf: [png, text], configuration: configuration)
        }
        #expect(throws: GeminiError.mediaUnreadable(path: "/nonexistent/x.png", reason: "no such file")) {
            _ = try GeminiMedia.inlinePart(contentsOf: URL(fileURLWithPath: "/nonexistent/x.png"))
        }
    }

    @Test func inMemoryPartsAndTheSeedsEncodeImages() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 92))
        let text = Data("hello".utf8)
        var configuration = GeminiClientConfiguration(maxMediaParts: 2, maxInlineMediaBytes: 105)
        let parts = try GeminiMedia.inlineParts(data: [png, text], configuration: configuration)
        #expect(
            parts == [
                .inlineData(mimeType: "image/png", data: png),
                .inlineData(mimeType: "text/plain", data: text),
            ])
        #expect(
            throws: GeminiError.mediaUnreadable(
                path: "item 2",
                reason: "not a supported media type (PNG, JPEG, WebP, GIF, HEIC, PDF, plain text)")
        ) {
            _ = try GeminiMedia.inlineParts(data: [png, Data([0x41, 0x00])], configuration: configuration)
        }
        configuration.maxInlineMediaBytes = 104
        #expect(throws: GeminiError.mediaTooLarge(path: "item 2", bytes: 5, limit: 4)) {
            _ = try GeminiMedia.inlineParts(data: [png, text], configuration: configuration)
        }
        configuration.maxMediaParts = 1
        let client = GeminiAPIClient(configuration: configuration)
        let variant = GeminiRequestVariant(modelID: "gemini-3.8-flash", compressMedia: true)
        #expect(
            try await client.encodeImages([png], variant: variant) == [
                .inlineData(mimeType: "image/png", data: png)
            ])
        await #expect(
            throws: GeminiError.invalidRequest(
                message: "Too many media files: 2 (the limit is 1).", fieldViolations: [])
        ) {
            _ = try await client.encodeImages([png, png], variant: variant)
        }
    }
}
