import Foundation

/// Reading `.sophon` scripts (docs/language.md): text files only, UTF-8 checked line by line,
/// BOM and CRLF accepted.
enum ScriptFile {
    /// Why a script cannot be read: for the command line, a usage error (exit 2).
    struct LoadError: Error, Equatable {
        /// `'PATH': no such file`, `'PATH' is a directory`, `'PATH' is not a text file`, ...
        var message: String
    }

    /// How much of a file is searched for a NUL byte before deciding it is text.
    static let binaryProbeLength = 8 * 1024

    /// The largest script read, in bytes.
    static let maximumLength = 64 * 1024 * 1024

    /// Reads the script at `path` into a source named `name` (default: `path`).
    /// - Throws: ``LoadError`` when it is missing, a directory, unreadable, too large, or
    ///   binary (a NUL byte in its first 8 KiB).
    static func load(_ path: String, name: String? = nil) throws(LoadError) -> ShellSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadError(message: "'\(path)': no such file")
        }
        guard !isDirectory.boolValue else { throw LoadError(message: "'\(path)' is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LoadError(message: "'\(path)': permission denied")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumLength + 1) ?? Data()
        } catch {
            throw LoadError(message: "'\(path)': cannot read: \(error.localizedDescription)")
        }
        guard data.count <= maximumLength else {
            throw LoadError(message: "'\(path)' is larger than \(maximumLength) bytes")
        }
        guard !data.prefix(binaryProbeLength).contains(0) else {
            throw LoadError(message: "'\(path)' is not a text file")
        }
        return ShellSource(name: name ?? path, bytes: Array(data))
    }

    /// The folder of `path` as written (`examples` for `examples/tour.sophon`, `.` for a bare
    /// name), so nested `source` lines and messages keep relative paths readable.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
