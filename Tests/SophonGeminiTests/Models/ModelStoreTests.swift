import Foundation
import Testing

@testable import SophonGemini

@Suite struct ModelStoreTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sophon-model-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func inMemoryStore() {
        let store = InMemoryGeminiModelStore("gemini-2.5-flash")
        #expect(store.loadSelection() == "gemini-2.5-flash")
        store.saveSelection(nil)
        #expect(store.loadSelection() == nil)
        store.saveSelection("x")
        #expect(store.loadSelection() == "x")
        #expect(InMemoryGeminiModelStore().loadSelection() == nil)
        #expect(InMemoryGeminiModelStore(selection: "y").loadSelection() == "y")
    }

    @Test func jsonFileRoundTrip() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nested/settings.json")
        let store = JSONFileGeminiModelStore(fileURL: file)
        #expect(store.loadSelection() == nil)
        store.saveSelection("gemini-3.8-flash")
        #expect(store.loadSelection() == "gemini-3.8-flash")
        // The file is as docs/files.md shows it, byte for byte.
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"model": "gemini-3.8-flash"}"# + "\n")
        // No temporary files are left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == [
                "settings.json"
            ])
        store.saveSelection(nil)
        #expect(store.loadSelection() == nil)
    }

    @Test func jsonFileKeepsOtherKeysAndSurvivesGarbage() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("settings.json")
        try Data(#"{"theme": "dark", "model": 3}"#.utf8).write(to: file)
        let store = JSONFileGeminiModelStore(fileURL: file)
        #expect(store.loadSelection() == nil)
        try store.save("gemini-2.5-pro")
        #expect(
            try String(contentsOf: file, encoding: .utf8) == #"{"model": "gemini-2.5-pro", "theme": "dark"}"#
                + "\n")
        try Data("not json".utf8).write(to: file)
        #expect(store.loadSelection() == nil)
        store.saveSelection("a")
        #expect(store.loadSelection() == "a")
    }

    @Test func userDefaultsStore() {
        let store = UserDefaultsGeminiModelStore(key: "sophon-test-\(UUID().uuidString)")
        #expect(store.loadSelection() == nil)
        store.saveSelection("gemini-2.5-flash")
        #expect(store.loadSelection() == "gemini-2.5-flash")
        store.saveSelection(nil)
        #expect(store.loadSelection() == nil)
    }
}
