import Foundation
import Testing

@testable import SophonCore

@Suite struct SophonPathsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let environment: [String: String]
        let config: String
        let state: String
        let flat: Bool
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(
            name: "HOME only", environment: ["HOME": "/home/ada"],
            config: "/home/ada/.config/sophon", state: "/home/ada/.local/state/sophon", flat: false),
        Case(
            name: "XDG both",
            environment: [
                "HOME": "/home/ada", "XDG_CONFIG_HOME": "/xdg/conf", "XDG_STATE_HOME": "/xdg/state",
            ],
            config: "/xdg/conf/sophon", state: "/xdg/state/sophon", flat: false),
        Case(
            name: "XDG config only", environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/c"],
            config: "/c/sophon", state: "/home/ada/.local/state/sophon", flat: false),
        Case(
            name: "empty and relative XDG ignored",
            environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "rel/state"],
            config: "/home/ada/.config/sophon", state: "/home/ada/.local/state/sophon", flat: false),
        Case(
            name: "SOPHON_HOME beats XDG",
            environment: [
                "HOME": "/home/ada", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s",
                "SOPHON_HOME": "/tmp/sh",
            ],
            config: "/tmp/sh", state: "/tmp/sh", flat: true),
        Case(
            name: "SOPHON_HOME standardised", environment: ["SOPHON_HOME": "/tmp/a/../b/"],
            config: "/tmp/b", state: "/tmp/b", flat: true),
        Case(
            name: "empty SOPHON_HOME ignored", environment: ["HOME": "/h", "SOPHON_HOME": ""],
            config: "/h/.config/sophon", state: "/h/.local/state/sophon", flat: false),
    ])
    func folders(_ test: Case) {
        let paths = SophonPaths(environment: test.environment)
        #expect(paths.configFolder.path == test.config)
        #expect(paths.stateFolder.path == test.state)
        #expect(paths.isFlat == test.flat)
    }

    @Test func filesWithoutSophonHome() {
        let paths = SophonPaths(environment: ["HOME": "/home/ada", "XDG_STATE_HOME": "/var/st"])
        #expect(paths.keysFile.path == "/home/ada/.config/sophon/keys.json")
        #expect(paths.rcFile.path == "/home/ada/.config/sophon/sophonrc")
        #expect(paths.settingsFile.path == "/home/ada/.config/sophon/settings.json")
        #expect(paths.historyFile.path == "/var/st/sophon/history")
        #expect(paths.pluginsFolder.path == "/home/ada/.config/sophon/plugins")
    }

    @Test func sophonHomeIsFlat() {
        let paths = SophonPaths(environment: ["HOME": "/home/ada", "SOPHON_HOME": "/tmp/flat"])
        #expect(paths.keysFile.path == "/tmp/flat/keys.json")
        #expect(paths.rcFile.path == "/tmp/flat/sophonrc")
        #expect(paths.settingsFile.path == "/tmp/flat/settings.json")
        #expect(paths.historyFile.path == "/tmp/flat/history")
        #expect(paths.pluginsFolder.path == "/tmp/flat/plugins")
    }

    @Test func relativeSophonHomeResolvesAgainstCurrentDirectory() {
        let paths = SophonPaths(environment: ["SOPHON_HOME": "rel-home"])
        let expected = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("rel-home").standardizedFileURL.path
        #expect(paths.configFolder.path == expected)
        #expect(paths.configFolder.path.hasPrefix("/"))
    }
}
