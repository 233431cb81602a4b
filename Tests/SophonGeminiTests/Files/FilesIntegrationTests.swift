import Foundation
import SophonCore
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonGemini

/// The Files API over real HTTP against scripts/fake_gemini.py: resumable upload with an
/// interruption, processing states, the upload memo, list, delete and download.
@Suite(.childSlots) struct FilesIntegrationTests {
    /// 20 MiB + 12345 bytes of a repeating, position-dependent pattern.
    static let bigFile: Data = {
        var bytes = [UInt8](repeating: 0, count: 20 * 1024 * 1024 + 12345)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        return Data(bytes)
    }()

    struct Upload: Decodable {
        var size: Int
        var received: Int
        var bytesSeen: Int
        var sha256: String
        var file: String?
    }

    func uploads(_ server: FakeGeminiServer) async throws -> [Upload] {
        try await JSONDecoder().decode(
            [Upload].self, from: server.control("GET", "/_sophon/uploads", body: nil))
    }

    func client(_ server: FakeGeminiServer, recorder: SleepRecorder = SleepRecorder()) -> GeminiAPIClient {
        GeminiAPIClient(configuration: .testing(recorder: recorder, baseURL: server.baseURL))
    }

    @Test func interruptedUploadResumesAtTheServersOffset() async throws {
        let server = try await FakeGeminiServer()
        let interruptAt = 8 * 1024 * 1024 + 1_000_000
        _ = try await server.control("POST", "/_sophon/files", body: #"{"interruptAt": \#(interruptAt)}"#)
        let recorder = SleepRecorder()
        let seen = Mutex<[Int]>([])
        let file = try await client(server, recorder: recorder).uploadFile(
            data: Self.bigFile, mimeType: "video/mp4", displayName: "clip.mp4"
        ) { sent, total in
            #expect(total == Self.bigFile.count)
            seen.withLock { $0.append(sent) }
        }
        #expect(file.state == "ACTIVE")
        #expect(file.sizeBytes == String(Self.bigFile.count))
        #expect(file.displayName == "clip.mp4")
        #expect(file.mimeType == "video/mp4")
        let upload = try #require(try await uploads(server).first)
        #expect(upload.size == Self.bigFile.count)
        #expect(upload.received == Self.bigFile.count)
        #expect(upload.bytesSeen == Self.bigFile.count)
        #expect(upload.sha256 == SHA256.hexDigest(Self.bigFile))
        #expect(upload.file == file.name)
        #expect(
            seen.withLock { $0 } == [0, 8_388_608, interruptAt, interruptAt + 8_388_608, Self.bigFile.count])
        #expect(recorder.recorded == [.milliseconds(880)])
        let requests = try await server.requests()
        let commands = requests.map { request in
            [request.headers["x-goog-upload-command"] ?? "", request.headers["x-goog-upload-offset"] ?? ""]
        }
        #expect(
            commands == [
                ["start", ""], ["upload", "0"], ["upload", "8388608"], ["query", ""],
                ["upload", String(interruptAt)], ["upload, finalize", String(interruptAt + 8_388_608)],
            ])
        #expect(requests.first?.path == "/upload/v1beta/files")
        #expect(requests.first?.headers["x-goog-upload-header-content-length"] == String(Self.bigFile.count))
        #expect(requests.first?.headers["x-goog-upload-header-content-type"] == "video/mp4")
        #expect(requests.first?.bodyText == #"{"file":{"displayName":"clip.mp4"}}"#)
        #expect(requests.allSatisfy { $0.path.hasPrefix("/upload/v1beta/files") })
    }

    /// A file upload types its bytes by the one media rule: audio and video as `attach` does.
    @Test func anUploadedFileIsTypedAsAMediaPartIs() async throws {
        let server = try await FakeGeminiServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("note.wav")
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8).write(to: wav)
        let zip = folder.appendingPathComponent("a.zip")
        try Data([0x50, 0x4B, 0x03, 0x04, 0x00]).write(to: zip)
        let file = try await client(server).uploadFile(contentsOf: wav)
        #expect(file.mimeType == "audio/wav")
        #expect(file.displayName == "note.wav")
        #expect(
            try await server.requests().first?.headers["x-goog-upload-header-content-type"] == "audio/wav")
        #expect(
            throws: GeminiError.mediaUnreadable(path: zip.path, reason: "unsupported type application/zip")
        ) {
            _ = try GeminiMedia.readFile(zip, mimeType: nil)
        }
    }

    @Test func waitsWhileProcessingThenActive() async throws {
        let server = try await FakeGeminiServer()
        _ = try await server.control("POST", "/_sophon/files", body: #"{"processingSeconds": 3}"#)
        let recorder = SleepRecorder()
        let client = client(server, recorder: recorder)
        let file = try await client.uploadFile(data: Data("hello".utf8), mimeType: "text/plain")
        #expect(file.state == "PROCESSING")
        let active = try await client.waitUntilActive(try #require(file.name))
        #expect(active.state == "ACTIVE")
        #expect(recorder.recorded == [.seconds(1), .seconds(2)])
    }

    @Test func failedProcessingIsTyped() async throws {
        let server = try await FakeGeminiServer()
        _ = try await server.control(
            "POST", "/_sophon/files", body: #"{"processingSeconds": 2, "finalState": "FAILED"}"#)
        let client = client(server)
        let file = try await client.uploadFile(data: Data("hello".utf8), mimeType: "text/plain")
        let name = try #require(file.name)
        await #expect(
            throws: GeminiFileError.processingFailed(name: name, message: "The file could not be processed.")
        ) {
            _ = try await client.waitUntilActive(name)
        }
    }

    @Test func processingTimeoutIsTyped() async throws {
        let server = try await FakeGeminiServer()
        _ = try await server.control("POST", "/_sophon/files", body: #"{"processingSeconds": 100}"#)
        let client = client(server)
        let file = try await client.uploadFile(data: Data("hello".utf8), mimeType: "text/plain")
        let name = try #require(file.name)
        await #expect(throws: GeminiFileError.processingTimedOut(name: name, waited: .seconds(5))) {
            _ = try await client.waitUntilActive(name, timeout: .seconds(5))
        }
    }

    @Test func sameBytesUploadOnce() async throws {
        let server = try await FakeGeminiServer()
        let client = client(server)
        let first = try await client.uploadFileOnce(data: Data("same".utf8), mimeType: "text/plain")
        let second = try await client.uploadFileOnce(data: Data("same".utf8), mimeType: "text/plain")
        let other = try await client.uploadFileOnce(data: Data("other".utf8), mimeType: "text/plain")
        #expect(first.uploaded && !second.uploaded && other.uploaded)
        #expect(first.file == second.file)
        #expect(try await uploads(server).count == 2)
    }

    @Test func unknownFileIs403NotFound() async throws {
        let server = try await FakeGeminiServer()
        await #expect(
            throws: GeminiFileError.notFound(
                name: "files/nope",
                message:
                    "HTTP 403 PERMISSION_DENIED: You do not have permission to access the File nope or it may not exist."
            )
        ) {
            _ = try await client(server).getFile("files/nope")
        }
    }

    @Test func listPagesDeleteAndRepeatedToken() async throws {
        let server = try await FakeGeminiServer()
        let client = client(server)
        var names: [String] = []
        for index in 0..<3 {
            names.append(
                try #require(
                    try await client.uploadFile(data: Data("f\(index)".utf8), mimeType: "text/plain").name))
        }
        let all = try await client.listAllFiles(pageSize: 2)
        #expect(all.compactMap(\.name) == names)
        try await client.deleteFile(names[0])
        #expect(try await client.listAllFiles().compactMap(\.name) == Array(names.dropFirst()))
        _ = try await server.control("POST", "/_sophon/files", body: #"{"repeatToken": true}"#)
        let warnings = Mutex<[String]>([])
        let looped = try await client.listAllFiles(pageSize: 1) { text in
            warnings.withLock { $0.append(text) }
        }
        #expect(looped.compactMap(\.name) == [names[1], names[1]])
        #expect(warnings.withLock { $0 } == ["the server repeated page token 'p0'; the listing stops here"])
    }

    @Test func downloadGeneratedFileOnly() async throws {
        let server = try await FakeGeminiServer()
        let added = try await server.control(
            "POST", "/_sophon/files/add", body: #"{"mimeType": "image/png", "data": "aGVsbG8="}"#)
        let generated = try JSONDecoder().decode(GeminiFile.self, from: added)
        let client = client(server)
        #expect(try await client.downloadFile(try #require(generated.name)) == Data("hello".utf8))
        let uploaded = try await client.uploadFile(data: Data("x".utf8), mimeType: "text/plain")
        let name = try #require(uploaded.name)
        await #expect(throws: GeminiFileError.notDownloadable(name: name)) {
            _ = try await client.downloadFile(name)
        }
    }

    @Test func mediaPartsInlineSmallFilesAndUploadTheRestOnce() async throws {
        let server = try await FakeGeminiServer()
        var configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), baseURL: server.baseURL)
        configuration.inlineMediaLimit = 10
        let client = GeminiAPIClient(configuration: configuration)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.txt")
        let large = folder.appendingPathComponent("large.txt")
        try Data("tiny".utf8).write(to: small)
        try Data("a longer text file".utf8).write(to: large)
        let remote = try #require(URL(string: "https://example.com/talk.mp3"))
        let parts = try await client.mediaParts(for: [small, large, remote, large])
        #expect(parts.count == 4)
        #expect(parts[0] == .inlineData(mimeType: "text/plain", data: Data("tiny".utf8)))
        #expect(parts[1].fileData?.mimeType == "text/plain")
        #expect(
            parts[1].fileData?.fileUri.hasPrefix("https://generativelanguage.googleapis.com/v1beta/files/")
                == true)
        #expect(parts[2] == Part(fileData: FileData(fileUri: "https://example.com/talk.mp3")))
        #expect(parts[3] == parts[1])
        #expect(try await uploads(server).count == 1)
    }

    @Test func anExpiredFileIsRefusedAndNotReused() async throws {
        let server = try await FakeGeminiServer()
        _ = try await server.control("POST", "/_sophon/files", body: #"{"lifetimeSeconds": 0}"#)
        let client = client(server)
        let first = try await client.uploadFileOnce(data: Data("x".utf8), mimeType: "text/plain")
        let second = try await client.uploadFileOnce(data: Data("x".utf8), mimeType: "text/plain")
        #expect(first.uploaded && second.uploaded)
        let name = try #require(second.file.name)
        let time = try #require(second.file.expirationTime)
        #expect(throws: GeminiFileError.expired(name: name, expirationTime: time)) {
            try second.file.checkUsable()
        }
    }

    @Test func sha256KnownAnswers() {
        #expect(
            SHA256.hexDigest(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var split = SHA256()
        let text = Data(String(repeating: "a", count: 1000).utf8)
        split.update(text.prefix(3))
        split.update(text.dropFirst(3))
        #expect(
            split.finish()
                == {
                    var whole = SHA256(); whole.update(text); return whole.finish()
                }())
    }
}
