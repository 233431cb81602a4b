import Foundation
import SophonTestSupport
import Testing

/// Issue 25 point 15: `scripts/ensure-deps` runs `apt-get update` first when the package lists
/// are missing (a fresh machine printed "Unable to locate package" before its retry), and
/// `scripts/tour` says it is building before the build. Run with fake `apt-get`, `dpkg-query`,
/// `id` and `swift` first on PATH (nothing is installed or built).
@Suite(.childSlots) struct SetupScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A folder of fake tools, an empty package-lists folder, and the log the fake `apt-get` writes.
    struct FakeMachine {
        let folder: URL
        var log: URL { folder.appendingPathComponent("apt.log") }
        var lists: URL { folder.appendingPathComponent("lists") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sophon-deps-\(UUID().uuidString)")
            let bin = folder.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("lists"), withIntermediateDirectories: true)
            let tools = [
                "apt-get": "echo \"apt-get $1\" >> '\(folder.path)/apt.log'",
                "dpkg-query": "exit 1",
                "id": "echo 0",
                "swift": "echo 'fake swift build failed'; exit 1",
            ]
            for (name, body) in tools {
                let path = bin.appendingPathComponent(name).path
                #expect(
                    FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n\(body)\n".utf8)))
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        }

        /// Runs `script` of the repository; returns its stderr and exit status.
        func run(_ script: String) async throws -> (stderr: String, status: Int32) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [SetupScriptTests.repository.appendingPathComponent(script).path]
            process.environment = [
                "PATH": folder.appendingPathComponent("bin").path + ":/usr/bin:/bin",
                "SOPHON_APT_LISTS": lists.path,
                "HOME": folder.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let data = await OffPool.run {
                let data = errors.fileHandleForReading.readAllRetryingInterrupts()
                process.waitUntilExit()
                return data
            }
            return (String(decoding: data, as: UTF8.self), process.terminationStatus)
        }
    }

    @Test func ensureDepsUpdatesThePackageListsFirstWhenThereAreNone() async throws {
        let machine = try FakeMachine()
        defer { try? FileManager.default.removeItem(at: machine.folder) }
        let outcome = try await machine.run("scripts/ensure-deps")
        #expect(outcome.status == 0)
        #expect(try String(contentsOf: machine.log, encoding: .utf8) == "apt-get update\napt-get install\n")
        #expect(outcome.stderr.contains("ensure-deps: no package lists yet; running apt-get update\n"))
    }

    @Test func ensureDepsDoesNotUpdateWhenThePackageListsAreThere() async throws {
        let machine = try FakeMachine()
        defer { try? FileManager.default.removeItem(at: machine.folder) }
        #expect(
            FileManager.default.createFile(
                atPath: machine.lists.appendingPathComponent(
                    "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages"
                ).path,
                contents: Data()))
        #expect(try await machine.run("scripts/ensure-deps").status == 0)
        #expect(try String(contentsOf: machine.log, encoding: .utf8) == "apt-get install\n")
    }

    @Test func theTourSaysItIsBuildingBeforeTheBuild() async throws {
        let machine = try FakeMachine()
        defer { try? FileManager.default.removeItem(at: machine.folder) }
        let outcome = try await machine.run("scripts/tour")
        #expect(outcome.status == 1)
        let building = try #require(
            outcome.stderr.range(
                of: "tour: building sophon (release; the first build takes 2-3 minutes on 2 cores)...\n"))
        let failed = try #require(outcome.stderr.range(of: "fake swift build failed"))
        #expect(building.upperBound <= failed.lowerBound)
    }
}
