import Foundation

/// Finds the scripts `sophon test` runs (docs/commands.md, "test"): every `*.sophon` file under
/// the given folders (hidden files and folders skipped), and files named directly, sorted by
/// path, each once.
enum TestDiscovery {
    /// The script paths under `paths` (the current folder when empty), as they will be shown:
    /// relative to the current folder when a folder was given as `.`, else prefixed with the
    /// folder as typed.
    /// - Throws: ``CommandFailure`` (`usage`) for a path that does not exist.
    static func files(under paths: [String]) throws -> [String] {
        var found = Set<String>()
        for path in paths.isEmpty ? ["."] : paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw CommandFailure(kind: .usage, message: "test: no such file or folder: \(path)")
            }
            guard isFolder.boolValue else {
                found.insert(path)
                continue
            }
            for relative in scripts(in: path) {
                found.insert(join(path, relative))
            }
        }
        return found.sorted()
    }

    /// The tape replayed for `script`: `NAME.tape` beside `NAME.sophon`; on `model`
    /// (`test --models`), `NAME.MODEL.tape`.
    static func tape(for script: String, model: String? = nil) -> String {
        let base = script.hasSuffix(".sophon") ? String(script.dropLast(".sophon".count)) : script
        return base + (model.map { "." + $0 } ?? "") + ".tape"
    }

    /// The `*.sophon` files under `folder`, as paths relative to it.
    private static func scripts(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var result: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard name.hasSuffix(".sophon") else { continue }
            var isFolder: ObjCBool = false
            let full = join(folder, relative)
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(relative)
            }
        }
        return result
    }

    /// `relative` under `folder` as shown: `.` and trailing slashes dropped.
    private static func join(_ folder: String, _ relative: String) -> String {
        var prefix = folder
        while prefix.count > 1, prefix.hasSuffix("/") { prefix.removeLast() }
        if prefix == "." { return relative }
        return prefix == "/" ? "/" + relative : prefix + "/" + relative
    }
}
