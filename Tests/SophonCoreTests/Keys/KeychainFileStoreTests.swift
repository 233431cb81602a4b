import Foundation
import Testing

@testable import SophonCore

@Suite struct KeychainFileStoreTests {
    static let key = "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f"

    @Test func saveCreatesFolder0700AndFile0600WithSortedJSON() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let store = FileSecretStore(fileURL: tmp.file("config/sophon/keys.json"))
        #expect(try store.save(Self.key, for: "gemini") == .file(path: store.fileURL.path))
        try store.save("s3cr3t", for: "another")
        #expect(permissions(of: tmp.file("config/sophon")) == 0o700)
        #expect(permissions(of: tmp.file("config")) == 0o700)
        #expect(permissions(of: store.fileURL) == 0o600)
        #expect(
            contents(of: store.fileURL) == "{\n  \"another\": \"s3cr3t\",\n  \"gemini\": \"\(Self.key)\"\n}\n"
        )
        #expect(try tmp.names(in: tmp.file("config/sophon")) == ["keys.json"])
    }

    @Test func saveLoadDeleteRoundTrip() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let store = FileSecretStore(paths: SophonPaths(environment: ["SOPHON_HOME": tmp.url.path]))
        #expect(store.fileURL.path == tmp.file("keys.json").path)
        #expect(try store.secret(for: "gemini") == nil)
        #expect(try store.deleteSecret(for: "gemini") == false)
        #expect(try tmp.names() == [])
        try store.save("first-key-000000", for: "gemini")
        try store.save(Self.key, for: "gemini")
        try store.save("other-key", for: "other")
        #expect(
            try store.secret(for: "gemini")
                == SecretLookup(secret: Self.key, source: .file(path: store.fileURL.path)))
        #expect(try store.deleteSecret(for: "gemini") == true)
        #expect(try store.secret(for: "gemini") == nil)
        #expect(try store.deleteSecret(for: "gemini") == false)
        #expect(try store.readAll() == ["other": "other-key"])
        #expect(try store.deleteSecret(for: "other") == true)
        #expect(contents(of: store.fileURL) == "{}\n")
    }

    @Test func groupOrWorldReadableFileIsRefusedWithFix() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, #"{"gemini": "k"}"#, mode: 0o644)
        let store = FileSecretStore(fileURL: url)
        let expected = SecretStoreError.insecurePermissions(path: url.path, permissions: 0o644)
        let error = #expect(throws: expected) { try store.secret(for: "gemini") }
        #expect(
            error?.description
                == "\(url.path) is readable by other users (mode 0644); run: chmod 600 '\(url.path)'")
        #expect(throws: expected) { try store.save("new", for: "gemini") }
        #expect(throws: expected) { try store.deleteSecret(for: "gemini") }
        #expect(contents(of: url) == #"{"gemini": "k"}"#)
        #expect(permissions(of: url) == 0o644)
    }

    @Test(arguments: [
        (UInt32(0o640), "readable by other users (mode 0640)"),
        (UInt32(0o604), "readable by other users (mode 0604)"),
        (UInt32(0o620), "accessible by other users (mode 0620)"),
        (UInt32(0o601), "accessible by other users (mode 0601)"),
    ])
    func anyGroupOrOtherBitIsRefused(mode: UInt32, phrase: String) throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, "{}", mode: mode)
        let error = #expect(throws: SecretStoreError.self) { try FileSecretStore(fileURL: url).readAll() }
        #expect(error?.description == "\(url.path) is \(phrase); run: chmod 600 '\(url.path)'")
    }

    @Test func ownerOnlyModesAreAccepted() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, #"{"gemini": "abc"}"#, mode: 0o400)
        #expect(try FileSecretStore(fileURL: url).secret(for: "gemini")?.secret == "abc")
    }

    @Test func pathWithQuoteIsShellQuoted() {
        let error = SecretStoreError.insecurePermissions(path: "/tmp/it's/keys.json", permissions: 0o644)
        #expect(
            error.description
                == #"/tmp/it's/keys.json is readable by other users (mode 0644); run: chmod 600 '/tmp/it'\''s/keys.json'"#
        )
    }

    @Test(arguments: [
        ("{\"gemini\": ", "not valid JSON"),
        ("[\"gemini\"]", "the top level is not an object"),
        ("{\"gemini\": 5}", "the value of \"gemini\" is not a string"),
        ("{\"gemini\": null}", "the value of \"gemini\" is not a string"),
        ("{\"a\": \"x\", \"gemini\": {\"k\": \"v\"}}", "the value of \"gemini\" is not a string"),
    ])
    func corruptFileIsReportedAndNeverOverwritten(text: String, detail: String) throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, text, mode: 0o600)
        let store = FileSecretStore(fileURL: url)
        let expected = SecretStoreError.corruptFile(path: url.path, detail: detail)
        let error = #expect(throws: expected) { try store.secret(for: "gemini") }
        #expect(
            error?.description
                == "\(url.path) is not a JSON object of account names to secret strings (\(detail)); "
                + "fix or remove it: Sophon will not overwrite it")
        #expect(throws: expected) { try store.save("new", for: "gemini") }
        #expect(throws: expected) { try store.deleteSecret(for: "gemini") }
        #expect(contents(of: url) == text)
    }

    @Test func nonUTF8FileIsCorrupt() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try Data([0x7B, 0xFF, 0xFE, 0x7D]).write(to: url)
        setMode(url, 0o600)
        #expect(throws: SecretStoreError.corruptFile(path: url.path, detail: "not UTF-8 text")) {
            try FileSecretStore(fileURL: url).readAll()
        }
    }

    @Test func emptyFileIsAnEmptyStore() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, " \n", mode: 0o600)
        let store = FileSecretStore(fileURL: url)
        #expect(try store.secret(for: "gemini") == nil)
        try store.save("abc", for: "gemini")
        #expect(contents(of: url) == "{\n  \"gemini\": \"abc\"\n}\n")
    }

    @Test func emptySecretValueInFileCountsAsMissing() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let url = tmp.file("keys.json")
        try makeFile(url, #"{"gemini": ""}"#, mode: 0o600)
        #expect(try FileSecretStore(fileURL: url).secret(for: "gemini") == nil)
    }

    @Test func emptySecretOrAccountIsRefused() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let store = FileSecretStore(fileURL: tmp.file("keys.json"))
        #expect(throws: SecretStoreError.emptySecret(account: "gemini")) { try store.save("", for: "gemini") }
        #expect(throws: SecretStoreError.emptyAccount) { try store.save("k", for: "") }
        #expect(try tmp.names() == [])
    }

    @Test func unreadableLocationIsAFileError() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(at: tmp.file("keys.json"), withIntermediateDirectories: false)
        let store = FileSecretStore(fileURL: tmp.file("keys.json"))
        #expect(
            throws: SecretStoreError.file(
                SophonFileError(path: store.fileURL.path, operation: .read, errorNumber: EISDIR))
        ) {
            try store.secret(for: "gemini")
        }
    }
}
