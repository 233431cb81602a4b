import Foundation
import SophonCore
import Synchronization
import Testing

@testable import SophonShell

/// Discovery, and a live connection to the test plugin `Support/Plugins/sophon-plugin-faulty`:
/// cancellation (what Ctrl-C does), and the connection staying usable afterwards.
@Suite struct PluginHostTests {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/Plugins")

    /// Collects what the host writes to stderr.
    final class Capture: ShellTextSink {
        let text = Mutex("")
        func write(_ text: String) { self.text.withLock { $0 += text } }
        var value: String { text.withLock { $0 } }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-plugins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func file(_ folder: URL, _ name: String, executable: Bool) throws {
        let path = folder.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8)))
        try FileManager.default.setAttributes(
            [.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
    }

    @Test func discoveryTakesTheFirstExecutableOfEachNameInFolderOrder() throws {
        let first = try Self.folder()
        let second = try Self.folder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        try Self.file(first, "sophon-plugin-b", executable: true)
        try Self.file(first, "sophon-plugin-c", executable: false)
        try Self.file(first, "other-tool", executable: true)
        try Self.file(first, "sophon-plugin-bad.name", executable: true)
        try FileManager.default.createDirectory(
            at: first.appendingPathComponent("sophon-plugin-dir"), withIntermediateDirectories: true)
        try Self.file(second, "sophon-plugin-b", executable: true)
        try Self.file(second, "sophon-plugin-a", executable: true)
        try Self.file(second, "sophon-plugin-c", executable: true)
        let found = PluginDiscovery(folders: [first.path, second.path, "/no/such/folder"]).scan()
        #expect(found.map(\.name) == ["b", "a", "c"])
        #expect(
            found.map(\.path) == [
                first.path + "/sophon-plugin-b", second.path + "/sophon-plugin-a",
                second.path + "/sophon-plugin-c",
            ])
    }

    @Test func discoverySearchesThePluginsFolderThenPath() {
        let discovery = PluginDiscovery(environment: [
            "SOPHON_HOME": "/home/s", "PATH": "/usr/local/bin:relative:/bin",
        ])
        #expect(discovery.folders == ["/home/s/plugins", "/usr/local/bin", "/bin"])
    }

    @Test(arguments: [
        ("/x/sophon-plugin-csv", "csv"), ("/x/tool.py", "tool"), ("/x/sophon-plugin-", "sophon-plugin-"),
    ])
    func labels(path: String, label: String) {
        #expect(PluginDiscovery.label(forPath: path) == label)
    }

    @Test func cancellingACallSendsCancelAndKeepsThePluginRunning() async throws {
        let capture = Capture()
        let connection = try PluginConnection(
            name: "faulty", path: Self.support.appendingPathComponent("sophon-plugin-faulty").path,
            environment: ProcessInfo.processInfo.environment, stderr: capture)
        defer { connection.kill() }
        let hello = try await connection.request(
            { PluginProtocol.hello(id: $0) }, purpose: .handshake, timeout: .seconds(20),
            cancelGrace: .seconds(20))
        #expect(hello.type == "hello")
        let call = Task {
            try await connection.request(
                { PluginProtocol.call(id: $0, command: "faulty-slow", arguments: [], session: .object([])) },
                purpose: .command("faulty-slow"), timeout: .seconds(20), cancelGrace: .seconds(20))
        }
        for _ in 0..<400 where !capture.value.contains("waiting for a cancel") {
            try await Task.sleep(for: .milliseconds(25))
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(
            capture.value
                == "faulty: started, protocol versions offered: [1]\nfaulty: waiting for a cancel\n"
                + "faulty: got cancel for request 2 (call was request 2)\n")
        #expect(connection.isUsable)
        let next = try await connection.request(
            {
                PluginProtocol.call(id: $0, command: "faulty-session", arguments: ["x"], session: .object([]))
            },
            purpose: .command("faulty-session"), timeout: .seconds(20), cancelGrace: .seconds(20))
        #expect(next.id == 3)
        #expect(next.message["value"] == .object([]))
    }

    @Test func aPluginThatIgnoresTheCancelIsKilledAfterTheGrace() async throws {
        let capture = Capture()
        let connection = try PluginConnection(
            name: "faulty", path: Self.support.appendingPathComponent("sophon-plugin-faulty").path,
            environment: ProcessInfo.processInfo.environment, stderr: capture)
        defer { connection.kill() }
        _ = try await connection.request(
            { PluginProtocol.hello(id: $0) }, purpose: .handshake, timeout: .seconds(20),
            cancelGrace: .seconds(20))
        let call = Task {
            try await connection.request(
                { PluginProtocol.call(id: $0, command: "faulty-hang", arguments: [], session: .object([])) },
                purpose: .command("faulty-hang"), timeout: .seconds(60), cancelGrace: .milliseconds(100))
        }
        for _ in 0..<400 where !capture.value.contains("sleeping for an hour") {
            try await Task.sleep(for: .milliseconds(25))
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(!connection.isUsable)
        #expect(
            capture.value.hasSuffix(
                "warning: plugin 'faulty' did not answer the cancel within 100ms; it was stopped\n"))
    }

    @Test func theHostStartsAPluginOnFirstUseAndListsIt() async throws {
        let capture = Capture()
        let host = ExternalPluginHost(
            builtInNames: ["echo", "faulty-exit"], stderr: capture,
            discovery: PluginDiscovery(folders: [Self.support.path]))
        #expect(host.isPluginName("faulty"))
        #expect(host.startedPlugins().isEmpty)
        #expect(
            host.listing() == [
                "faulty (external, \(Self.support.path)/sophon-plugin-faulty): not started",
                "future (external, \(Self.support.path)/sophon-plugin-future): not started",
            ])
        let command = try await host.command(named: "faulty-session", timeout: .seconds(20))
        #expect(command?.name == "faulty-session")
        #expect(try await host.command(named: "nothing", timeout: .seconds(20)) == nil)
        #expect(
            host.listing() == [
                "faulty 0.1 (external, \(Self.support.path)/sophon-plugin-faulty): faulty-garbage, faulty-hang, "
                    + "faulty-wrong-id, faulty-slow, faulty-session, faulty-exit (hidden)",
                "future (external, \(Self.support.path)/sophon-plugin-future): failed to start: "
                    + "plugin 'future' speaks protocol version 2; sophon speaks version 1",
            ])
        #expect(capture.value.contains("warning: plugin 'faulty': command 'faulty-exit' is hidden"))
        try host.unload("faulty")
        #expect(host.pluginNames == ["future"])
    }

    @Test(arguments: [
        (
            "sophon-plugin-bad", "#!/no/such/interp\n",
            "its interpreter /no/such/interp is missing or not executable"
        ),
        ("sophon-plugin-bin", "garbage\u{0}\u{1}", "not a program this system can run"),
    ])
    func startFailuresSayWhy(file: String, content: String, reason: String) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(file).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let host = ExternalPluginHost(
            builtInNames: [], stderr: Capture(), discovery: PluginDiscovery(folders: []))
        let label = String(file.dropFirst("sophon-plugin-".count))
        do {
            _ = try await host.load(path: path, timeout: .seconds(20))
            Issue.record("\(file) started")
        } catch {
            #expect(error.message == "plugin '\(label)' could not start: \(path): \(reason)")
        }
        do {
            _ = try await host.load(path: folder.path + "/missing", timeout: .seconds(20))
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.message == "plugin load: no such file: \(folder.path)/missing")
        }
    }
}
