import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// Removes the temporaries that writers killed mid-write left beside `name` in `folder`
    /// (`.NAME.tmp-PID-HEX`, see ``temporaryPrefix(for:)``): those whose PID names no running
    /// process (`kill(PID, 0)` fails with `ESRCH`). A temporary of this process or of another
    /// live one (a concurrent writer) stays. Best effort: errors are ignored.
    ///
    /// A killed `key set` would otherwise leave a full copy of keys.json behind for good
    /// (scripts/crash-safety.py found them).
    static func removeStaleTemporaries(in folder: String, name: String) {
        let prefix = temporaryPrefix(for: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                pid != getpid()
            else { continue }
            let suffix = rest[rest.index(after: dash)...]
            guard !suffix.isEmpty, suffix.allSatisfy(\.isHexDigit) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                _ = unlink((folder as NSString).appendingPathComponent(entry))
            }
        }
    }
}
