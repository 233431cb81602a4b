import Foundation
import SophonCore
import SophonMedia
import SophonTestSupport
import Testing

/// `attach` + `ask` end to end with downscale on retry: the real binary, scripts/fake_gemini.py
/// resetting the first connection, and the image the second request carried.
@Suite(.childSlots) struct GeminiShellDownscaleTests {
    /// A 2400 x 1200 PNG, busy enough to compress badly; its left 100 columns fully transparent.
    static func picture() throws -> Data {
        let width = 2400
        let height = 1200
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 7
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let at = (y * width + x) * 4
                rgba[at] = UInt8(truncatingIfNeeded: x) ^ UInt8(truncatingIfNeeded: seed >> 24)
                rgba[at + 1] = UInt8(truncatingIfNeeded: y)
                rgba[at + 2] = UInt8(truncatingIfNeeded: seed >> 16)
                rgba[at + 3] = x < 100 ? 0 : 255
            }
        }
        return try MediaImageCodec.encodePNG(rgba: rgba, width: width, height: height)
    }

    @Test func downscaleOffResendsTheOriginalAndSettingItSaysNothing() async throws {
        let shell = try await GeminiShell()
        let png = try MediaImageCodec.encodePNG(
            rgba: (0..<(64 * 32)).flatMap { [UInt8(truncatingIfNeeded: $0), 9, 200, 255] }, width: 64,
            height: 32)
        try png.write(to: shell.home.appendingPathComponent("small.png"))
        let set = try await shell.run(["-c", "retry-policy downscale=on"])
        #expect(set == .init(stdout: "", stderr: "", status: 0))
        try await shell.server.script([#"{"fault": "reset"}"#, #"{"kind": "generate", "text": "small"}"#])
        let outcome = try await shell.run([
            "-c", "retry-policy downscale=off", "-c", "attach small.png", "-c", "ask what",
        ])
        #expect(outcome.stdout == "small\n")
        #expect(outcome.status == 0)
        let sent = try await shell.server.requests().map {
            $0.body["contents"]?[0]?["parts"]?[0]?["inlineData"]?["data"]?.stringValue
        }
        #expect(sent == [png.base64EncodedString(), png.base64EncodedString()])
    }

    @Test func aResetConnectionResendsTheAttachedPNGAsASmallerJPEGOnWhite() async throws {
        let shell = try await GeminiShell()
        let png = try Self.picture()
        try png.write(to: shell.home.appendingPathComponent("picture.png"))
        try await shell.server.script([#"{"fault": "reset"}"#, #"{"kind": "generate", "text": "a picture"}"#])
        let outcome = try await shell.run(["-c", "attach picture.png", "-c", "ask what is it"])
        #expect(outcome.stdout == "a picture\n")
        #expect(outcome.status == 0)
        let parts = try await shell.server.requests().map {
            $0.body["contents"]?[0]?["parts"]?[0]?["inlineData"]
        }
        #expect(parts.count == 2)
        #expect(parts.map { $0?["mimeType"]?.stringValue } == ["image/png", "image/jpeg"])
        #expect(Data(base64Encoded: parts[0]?["data"]?.stringValue ?? "") == png)
        let resent = try #require(Data(base64Encoded: parts[1]?["data"]?.stringValue ?? ""))
        #expect(resent.count < png.count)
        let decoded = try MediaImageCodec.decode(resent)
        #expect([decoded.width, decoded.height] == [1536, 768] as [Int])
        #expect(decoded.image.pixel(x: 20, y: 400).allSatisfy { $0 >= 250 })
    }
}
