import Foundation
import SophonCore

/// The memory mode of SophonBenchExtract: peak memory of one `extract(from:)` call on a
/// generated input, measured in a fresh process per input.
///
/// How: the input is generated straight into its final `String` (one allocation, nothing freed
/// before the call), the peak resident set is reset (`5` into `/proc/self/clear_refs`, Linux
/// 4.0+), `VmRSS` is read, `extract` runs, and `VmHWM` (the peak since the reset) is read with
/// the result still alive. Peak used = `VmHWM - VmRSS before`: all memory the call touched,
/// its result included; the input itself is not counted.
enum BenchMemory {
    /// One generated input: name, what it is, and the extractor options used.
    struct Kind: Sendable {
        let name: String
        let summary: String
        var maxDepth = 512
        /// Calls `emit` with the input's bytes in order, about `size` bytes in all.
        let generate: @Sendable (_ size: Int, _ emit: (String) -> Void) -> Void
    }

    static let kinds: [Kind] = [
        Kind(name: "ones", summary: "`[1,1,1,...]`") { size, emit in
            emit("[1")
            for _ in 0..<max(0, size / 2 - 1) { emit(",1") }
            emit("]")
        },
        Kind(name: "nested", summary: "100,000-deep `[[[...]]]` blocks, default maxDepth (refused)") {
            size, emit in nestedBlocks(size, emit)
        },
        Kind(
            name: "nested-deep", summary: "100,000-deep `[[[...]]]` blocks, maxDepth 10^9",
            maxDepth: 1_000_000_000
        ) { size, emit in nestedBlocks(size, emit) },
        Kind(name: "unclosed", summary: "`[[[[...` never closed, default maxDepth (refused)") {
            size, emit in for _ in 0..<size { emit("[") }
        },
        Kind(name: "unclosed-deep", summary: "`[[[[...` never closed, maxDepth 10^9", maxDepth: 1_000_000_000)
        {
            size, emit in for _ in 0..<size { emit("[") }
        },
        Kind(
            name: "unclosed-mixed", summary: "`{\"a\":[{\"a\":[...` never closed, maxDepth 10^9",
            maxDepth: 1_000_000_000
        ) { size, emit in for _ in 0..<size / 6 { emit("{\"a\":[") } },
        Kind(name: "members", summary: "`{\"a\":1,\"a\":1,...}`") { size, emit in
            emit("{\"a\":1")
            for _ in 0..<max(0, size / 6 - 1) { emit(",\"a\":1") }
            emit("}")
        },
        Kind(name: "string", summary: "one long string `{\"s\": \"...\"}` of words and escapes") {
            size, emit in
            emit("{\"s\": \"")
            for index in 0..<size / 32 {
                emit(
                    index % 8 == 7 ? "stone river\\n \\\"quoted\\\" done " : "alpha beta gamma delta orbit 東 "
                )
            }
            emit("\"}")
        },
        Kind(name: "truncated", summary: "a pretty-printed array of records cut in a string") { size, emit in
            emit("[\n")
            var written = 2
            var index = 0
            while written < size {
                let record =
                    "  {\n    \"id\": \(index),\n    \"name\": \"Record \(index)\",\n    \"score\": \(index % 997).5,\n"
                    + "    \"active\": \(index % 3 == 0),\n    \"tags\": [\"alpha\", \"beta\"],\n"
                    + "    \"bio\": \"a few words with \\\"quotes\\\" and a \\\\ backslash\"\n  },\n"
                emit(
                    written + record.utf8.count >= size
                        ? "  {\n    \"id\": \(index),\n    \"name\": \"Rec" : record)
                written += record.utf8.count
                index += 1
            }
        },
        Kind(name: "missing-commas", summary: "`[1 1 1 ...]` (a repair per element)") { size, emit in
            emit("[1")
            for _ in 0..<max(0, size / 2 - 1) { emit(" 1") }
            emit("]")
        },
        Kind(name: "prose", summary: "prose with a `{x}` every 28 bytes, one value at the end") {
            size, emit in
            for _ in 0..<size / 28 { emit("the field {x} is in pixels. ") }
            emit("{\"a\": 1}")
        },
        Kind(name: "escaped", summary: "escaped JSON `{\\\"a\\\":1,\\\"a\\\":1,...}`") { size, emit in
            emit("{\\\"a\\\":1")
            for _ in 0..<max(0, size / 10 - 1) { emit(",\\\"a\\\":1") }
            emit("}")
        },
        Kind(name: "controls", summary: "a string of raw control characters (each printed as `\\u0001`)") {
            size, emit in
            emit("[\"")
            for _ in 0..<size { emit("\u{01}") }
            emit("\"]")
        },
    ]

    private static func nestedBlocks(_ size: Int, _ emit: (String) -> Void) {
        let opens = String(repeating: "[", count: 100_000)
        let closes = String(repeating: "]", count: 100_000)
        for _ in 0..<max(1, size / 200_000) {
            emit(opens)
            emit(closes)
        }
    }

    /// The input of `kind`, generated into one `String` of its exact size.
    static func input(_ kind: Kind, size: Int) -> String {
        var count = 0
        kind.generate(size) { count += $0.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            kind.generate(size) { piece in
                for byte in piece.utf8 {
                    buffer[offset] = byte
                    offset += 1
                }
            }
            return offset
        }
    }

    /// A `/proc/self/status` field in bytes (`VmRSS`, `VmHWM`), or -1.
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return (Int(digits) ?? -1) * 1024
        }
        return -1
    }

    /// Measures one input in this process: prints `NAME INPUT_BYTES PEAK_BYTES VALUES`
    /// (VALUES: how many values were found, or `refused`).
    static func measure(_ name: String, size: Int) {
        guard let kind = kinds.first(where: { $0.name == name }) else { fail("unknown input \(name)") }
        let text = input(kind, size: size)
        let extractor = LLMJSONExtractor(options: .init(maxDepth: kind.maxDepth))
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        else {
            fail("cannot reset the peak RSS (/proc/self/clear_refs)")
        }
        let before = status("VmRSS")
        let outcome: String
        var peak = 0
        do {
            let found = try extractor.extract(from: text)
            peak = status("VmHWM")
            outcome = "\(found.count)"
            withExtendedLifetime(found) {}
        } catch {
            peak = status("VmHWM")
            outcome = "refused"
        }
        print("\(name) \(text.utf8.count) \(max(0, peak - before)) \(outcome)")
    }

    /// Runs ``measure(_:size:)`` for every kind, each in a fresh process, and prints a line
    /// per kind: its measure (`NAME - - crashed` when the process died), a tab, its summary.
    static func measureAll(size: Int) {
        for kind in kinds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            process.arguments = ["memory", "\(size)", kind.name]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { fail("cannot run myself: \(error)") }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let line = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let crashed = process.terminationReason == .uncaughtSignal
            let result = line.isEmpty || crashed ? "\(kind.name) - - crashed" : line
            print(result + "\t" + kind.summary)
        }
    }
}
