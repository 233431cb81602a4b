import Foundation
import SophonGemini
import Testing

@testable import SophonShell

/// The small pieces of media handling: the progress line, file names, settings, sniffing.
@Suite struct MediaUnitTests {
    @Test func progressLine() {
        #expect(
            UploadProgressBar.line(name: "clip.mp4", sent: 9_437_184, total: 20_971_520, seconds: 2)
                == "clip.mp4   45%  9.4/21.0 MB  4.7 MB/s")
        #expect(
            UploadProgressBar.line(name: "e", sent: 0, total: 0, seconds: 0)
                == "e  100%  0.0/0.0 MB  0.0 MB/s")
    }

    @Test func noBarWhenStderrIsNotTheTerminal() {
        let io = ShellIO(
            stdout: FileDescriptorSink(descriptor: 1), stderr: FileDescriptorSink(descriptor: 2),
            readAllInput: { Data() })
        #expect(UploadProgressBar.forStandardError(io: io, name: "x", environment: ["TERM": "dumb"]) == nil)
        #expect(UploadProgressBar.forStandardError(io: io, name: "x", environment: [:]) == nil)
    }

    @Test func savedNoticeAndExtensions() {
        #expect(
            ShellMessages.savedMedia(mimeType: "image/png", bytes: 421_888, path: "/m/a.png")
                == "saved image/png, 412 KB: /m/a.png")
        #expect(
            ShellMessages.savedMedia(mimeType: "image/png", bytes: 10, path: "p")
                == "saved image/png, 1 KB: p")
        #expect(ReplyMedia.fileExtension("image/jpeg") == "jpg")
        #expect(ReplyMedia.fileExtension("audio/L16;codec=pcm;rate=24000") == "pcm")
        #expect(ReplyMedia.fileExtension("application/x-unknown") == "bin")
    }

    @Test func responseModalitiesAndMediaDirSettings() throws {
        var settings = GeminiSettings()
        try settings.set("response-modalities", to: "text,Image,text")
        #expect(settings.generation.responseModalities == ["TEXT", "IMAGE"])
        #expect(settings.value(of: "response-modalities") == "text,image")
        #expect(throws: CommandFailure.self) { try settings.set("response-modalities", to: "video") }
        #expect(settings.generation.responseModalities == ["TEXT", "IMAGE"])
        try settings.set("response-modalities", to: "default")
        #expect(settings.generation.responseModalities == nil)
        try settings.set("media-dir", to: "out/media")
        #expect(settings.value(of: "media-dir") == "out/media")
    }

    @Test(
        arguments: [
            ([0x49, 0x44, 0x33, 0x04], "audio/mpeg"), ([0xFF, 0xFB, 0x90, 0x00], "audio/mpeg"),
            ([0xFF, 0xF1, 0x50, 0x80], "audio/aac"), (Array("fLaC".utf8), "audio/flac"),
            (Array("OggS".utf8), "audio/ogg"), (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), "audio/wav"),
            ([0, 0, 0, 0x18] + Array("ftypM4A ".utf8), "audio/mp4"),
            ([0, 0, 0, 0x18] + Array("ftypisom".utf8), "video/mp4"),
            ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8), "video/quicktime"),
            ([0x1A, 0x45, 0xDF, 0xA3], "video/webm"),
            ([0, 0, 1, 0xBA], "video/mpeg"), ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "image/heic"),
        ] as [([UInt8], String)])
    func sniffing(bytes: [UInt8], expected: String) {
        #expect(GeminiMedia.sniffMediaType(Data(bytes + [0x00, 0x01, 0x02])) == expected)
    }
}
