import Foundation
import SophonTestSupport
import Testing

/// A standard input that cannot be read (here a folder: `read(2)` fails with `EISDIR`) is an
/// error the shell reports, never an empty input.
@Suite(.childSlots) struct StandardInputErrorTests {
    @Test(arguments: [
        ([String](), "sophon: stdin: Is a directory\n"),
        (["ask", "hi"], "error: stdin: Is a directory\n"),
    ])
    func aFolderAsStandardInputIsAReadError(arguments: [String], stderr: String) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-stdin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
            "GEMINI_API_KEY": "test-key", "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9",
        ]
        process.currentDirectoryURL = home
        process.standardInput = try FileHandle(forReadingFrom: home)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (printed, reported) = await OffPool.run {
            let printed = output.fileHandleForReading.readAllRetryingInterrupts()
            let reported = errors.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            return (printed, reported)
        }
        #expect(String(decoding: printed, as: UTF8.self) == "")
        #expect(String(decoding: reported, as: UTF8.self) == stderr)
        #expect(process.terminationStatus == 1)
    }
}
