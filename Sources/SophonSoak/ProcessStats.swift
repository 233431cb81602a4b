import Foundation

/// Resource figures of this process read from /proc (Linux).
enum ProcessStats {
    /// Resident set size in kilobytes (`VmRSS` in /proc/self/status), or `nil` off Linux.
    static func residentKilobytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst("VmRSS:".count).filter(\.isNumber)
            return Int(String(digits))
        }
        return nil
    }

    /// The open file descriptors (entries of /proc/self/fd, the listing's own excluded), with
    /// what each points to.
    static func openDescriptors() -> [String: String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var result: [String: String] = [:]
        for entry in entries {
            let target =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) ?? "?"
            result[entry] = target
        }
        // The directory stream used for the listing is closed again; a vanished entry is it.
        return result.filter { FileManager.default.fileExists(atPath: "/proc/self/fd/\($0.key)") }
    }
}
