import Foundation
import Synchronization
import Testing

@testable import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct AtomicFileTests {
    @Test func createsFoldersAndFileWithRequestedModes() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("a/b/keys.json")
        try AtomicFile.write(Data("{}\n".utf8), to: target, permissions: 0o600, folderPermissions: 0o700)
        #expect(contents(of: target) == "{}\n")
        #expect(permissions(of: target) == 0o600)
        #expect(permissions(of: tmp.file("a/b")) == 0o700)
        #expect(permissions(of: tmp.file("a")) == 0o700)
        #expect(try tmp.names(in: tmp.file("a/b")) == ["keys.json"])
    }

    @Test func temporaryFileIsCreatedWithItsFinalModeInTheSameFolder() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("keys.json")
        let seen = Mutex<[(String, UInt32?)]>([])
        try AtomicFile.write(
            Data("secret".utf8), to: target, permissions: 0o600, folderPermissions: 0o700,
            fault: .observeTemporary { path in
                seen.withLock { $0.append((path, permissions(of: URL(fileURLWithPath: path)))) }
            })
        let observed = seen.withLock { $0 }
        #expect(observed.count == 1)
        #expect(observed.first?.0.hasPrefix(tmp.file(".keys.json.tmp-").path) == true)
        #expect(observed.first?.1 == 0o600)
        #expect(contents(of: target) == "secret")
        #expect(try tmp.names() == ["keys.json"])
    }

    @Test func replacesContentAndKeepsExistingModeWhenNoneGiven() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("notes.txt")
        try makeFile(target, "old", mode: 0o640)
        try AtomicFile.write(Data("new content".utf8), to: target)
        #expect(contents(of: target) == "new content")
        #expect(permissions(of: target) == 0o640)
        #expect(try tmp.names() == ["notes.txt"])
    }

    @Test func explicitModeReplacesExistingMode() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("k")
        try makeFile(target, "old", mode: 0o644)
        try AtomicFile.write(Data("x".utf8), to: target, permissions: 0o600)
        #expect(permissions(of: target) == 0o600)
    }

    @Test(arguments: [
        AtomicFile.Fault.failAfterWriting(bytes: 5), .failAfterWriting(bytes: 0), .failBeforeRename,
    ])
    func interruptedWriteLeavesOldFileAndNoTemporary(fault: AtomicFile.Fault) throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("settings.json")
        try makeFile(target, #"{"model": "old"}"#, mode: 0o600)
        let error = #expect(throws: SophonFileError.self) {
            try AtomicFile.write(
                Data(#"{"model": "new-and-longer"}"#.utf8), to: target, permissions: 0o600,
                folderPermissions: 0o700, fault: fault)
        }
        #expect(error?.errorNumber == EIO)
        if case .failBeforeRename = fault {
            #expect(error?.operation == .rename)
            #expect(error?.destination == target.path)
        } else {
            #expect(error?.operation == .write)
            #expect(error?.path == target.path)
        }
        #expect(contents(of: target) == #"{"model": "old"}"#)
        #expect(try tmp.names() == ["settings.json"])
    }

    @Test func aFolderAtThePathIsRefusedAndLeftWithNoTemporary() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("history")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try makeFile(target.appendingPathComponent("inside"), "kept", mode: 0o600)
        let error = #expect(throws: SophonFileError.self) {
            try AtomicFile.write(Data("x".utf8), to: target)
        }
        #expect(error?.operation == .replace)
        #expect(error?.errorNumber == EISDIR)
        #expect(error?.description == "cannot replace '\(target.path)': it is a folder, not a regular file")
        #expect(try tmp.names() == ["history"])
        #expect(contents(of: target.appendingPathComponent("inside")) == "kept")
    }

    @Test func parentThatIsAFileFailsToCreateFolder() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try makeFile(tmp.file("plain"), "", mode: 0o644)
        let error = #expect(throws: SophonFileError.self) {
            try AtomicFile.write(Data("x".utf8), to: tmp.file("plain/sub/file"))
        }
        #expect(
            error
                == SophonFileError(
                    path: tmp.file("plain/sub").path, operation: .createFolder, errorNumber: ENOTDIR))
        #expect(error?.description == "cannot create folder '\(tmp.file("plain/sub").path)': Not a directory")
    }

    @Test func errorDescriptions() {
        #expect(
            SophonFileError(path: "/x/keys.json", operation: .open, errorNumber: EACCES).description
                == "cannot open '/x/keys.json': Permission denied")
        #expect(
            SophonFileError(path: "/x/.k.tmp", operation: .rename, errorNumber: EXDEV, destination: "/y/k")
                .description == "cannot rename '/x/.k.tmp' to '/y/k': Invalid cross-device link")
    }

    @Test func snapshotReadsDataAndMode() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try makeFile(tmp.file("f"), "hello", mode: 0o640)
        let snapshot = try #require(try FileSnapshot.read(at: tmp.file("f")))
        #expect(snapshot.data == Data("hello".utf8))
        #expect(snapshot.permissions == 0o640)
        #expect(snapshot.ownerID == getuid())
        #expect(try FileSnapshot.read(at: tmp.file("missing")) == nil)
    }

    @Test func snapshotRefusesFoldersAndOversizedFiles() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try makeFile(tmp.file("big"), String(repeating: "x", count: 100), mode: 0o600)
        #expect(throws: SophonFileError(path: tmp.file("big").path, operation: .read, errorNumber: EFBIG)) {
            try FileSnapshot.read(at: tmp.file("big"), maxBytes: 99)
        }
        #expect(try FileSnapshot.read(at: tmp.file("big"), maxBytes: 100)?.data.count == 100)
        #expect(throws: SophonFileError(path: tmp.url.path, operation: .read, errorNumber: EISDIR)) {
            try FileSnapshot.read(at: tmp.url)
        }
    }
}

@Suite struct AtomicFileStaleTemporaryTests {
    /// A PID above Linux's maximum (2^22): never a running process.
    static let deadPID = 2_147_483_000

    @Test func aWriteRemovesTemporariesOfDeadWritersAndKeepsLiveOnes() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.file("keys.json")
        let dead = ".keys.json.tmp-\(Self.deadPID)-1f2e"
        let live = ".keys.json.tmp-\(getppid())-3c4d"
        let mine = ".keys.json.tmp-\(getpid())-5e6f"
        let other = ".other.json.tmp-\(Self.deadPID)-1f2e"
        let odd = ".keys.json.tmp-\(Self.deadPID)-not-hex"
        for name in [dead, live, mine, other, odd] { try makeFile(tmp.file(name), "old copy", mode: 0o600) }
        try AtomicFile.write(Data("{}\n".utf8), to: target, permissions: 0o600)
        #expect(try tmp.names().sorted() == [live, mine, odd, other, "keys.json"].sorted())
    }
}
