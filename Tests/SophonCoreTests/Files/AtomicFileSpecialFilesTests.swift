import Foundation
import Testing

@testable import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one writer follows symlinks (replacing the target in the target's folder) and refuses
/// FIFOs, devices and folders (docs/commands.md, "Files and secrets").
@Suite struct AtomicFileSpecialFilesTests {
    @Test func aSymlinkIsFollowedAndKept() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(at: tmp.file("real"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: tmp.file("real/target.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: tmp.file("link.txt").path, withDestinationPath: "real/target.txt")
        try FileManager.default.createSymbolicLink(
            atPath: tmp.file("chain.txt").path, withDestinationPath: "link.txt")
        try AtomicFile.write(Data("new".utf8), to: tmp.file("chain.txt"))
        #expect(contents(of: tmp.file("real/target.txt")) == "new")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: tmp.file("link.txt").path)
                == "real/target.txt")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: tmp.file("chain.txt").path)
                == "link.txt")
        #expect(try tmp.names(in: tmp.file("real")) == ["target.txt"])
    }

    @Test func aDanglingSymlinkCreatesItsTarget() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: tmp.file("link.txt").path, withDestinationPath: "new.txt")
        try AtomicFile.write(Data("made".utf8), to: tmp.file("link.txt"))
        #expect(contents(of: tmp.file("new.txt")) == "made")
    }

    @Test func aFIFOIsRefusedAndLeftAlone() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let fifo = tmp.file("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(
            throws: SophonFileError(
                path: fifo.path, operation: .replace, errorNumber: EINVAL, fileKind: "a FIFO")
        ) {
            try AtomicFile.write(Data("x".utf8), to: fifo)
        }
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try tmp.names() == ["pipe"])
    }

    @Test func aSymlinkToADeviceIsRefused() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: tmp.file("null").path, withDestinationPath: "/dev/null")
        let error = SophonFileError(
            path: "/dev/null", operation: .replace, errorNumber: EINVAL, fileKind: "a device")
        #expect(throws: error) { try AtomicFile.write(Data("x".utf8), to: tmp.file("null")) }
        #expect(error.description == "cannot replace '/dev/null': it is a device, not a regular file")
    }

    @Test func aFolderIsRefused() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(at: tmp.file("dir"), withIntermediateDirectories: true)
        #expect(
            throws: SophonFileError(
                path: tmp.file("dir").path, operation: .replace, errorNumber: EISDIR, fileKind: "a folder")
        ) { try AtomicFile.write(Data("x".utf8), to: tmp.file("dir")) }
    }

    @Test func aSymlinkLoopIsAnError() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createSymbolicLink(atPath: tmp.file("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: tmp.file("b").path, withDestinationPath: "a")
        #expect(throws: SophonFileError(path: tmp.file("a").path, operation: .open, errorNumber: ELOOP)) {
            try AtomicFile.write(Data("x".utf8), to: tmp.file("a"))
        }
    }
}
