// `SophonBenchExtract`: the Swift side of scripts/bench-extract (not shipped; built in release
// by that script only).
//
//   SophonBenchExtract extract FILE RUNS        LLMJSONExtractor on FILE
//   SophonBenchExtract serialization FILE RUNS  Foundation's JSONSerialization on FILE
//   SophonBenchExtract corpus FILE              the accuracy corpus: right/refused/wrong
//   SophonBenchExtract show FILE                each value found, its range and repairs
//   SophonBenchExtract compare FILE RUNS        extract and serialization alternately, with ratios
//   SophonBenchExtract scale RUNS FILE...       extract over several files in turn
//   SophonBenchExtract memory BYTES [INPUT]      peak memory of extract on generated inputs
//                                               (BenchMemory.swift), each in a fresh process
//
// FILE may hold several documents separated by U+001E (record separator); each is one call.
// Timing modes print `MEDIAN MIN MAX BYTES` (MB/s, MB = 10^6 bytes, over RUNS runs).
import Foundation
import SophonCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SophonBenchExtract: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail("usage: extract|serialization|compare FILE RUNS, scale RUNS FILE..., corpus|show FILE")
}
/// The contents of the file at `path`, or exit.
func read(_ path: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return data
}

if arguments[1] == "memory" {
    // SophonBenchExtract memory BYTES [INPUT]: `NAME INPUT_BYTES PEAK_BYTES VALUES` lines.
    let size = max(16, Int(arguments[2]) ?? 16_000_000)
    if arguments.count > 3 {
        BenchMemory.measure(arguments[3], size: size)
    } else {
        BenchMemory.measureAll(size: size)
    }
    exit(0)
}

let data = arguments[1] == "scale" ? Data() : read(arguments[2])

if arguments[1] == "corpus" {
    let (right, refused, wrong) = BenchCorpus.score(String(decoding: data, as: UTF8.self))
    print("\(right) \(refused) \(wrong)")
    exit(0)
}

if arguments[1] == "show" {
    do {
        for found in try LLMJSONExtractor().extract(from: String(decoding: data, as: UTF8.self)) {
            print(found.text, found.range)
            for repair in found.repairs { print("  \(repair.kind) \(repair.offset): \(repair.description)") }
        }
    } catch {
        print("error: \(error)")
    }
    exit(0)
}

/// One input file: its documents (split at U+001E) as data and as text, and their size.
struct Input {
    let documents: [Data]
    let texts: [String]
    let bytes: Int

    init(_ data: Data) {
        documents = data.split(separator: 0x1E, omittingEmptySubsequences: true).map { Data($0) }
        texts = documents.map { String(decoding: $0, as: UTF8.self) }
        bytes = documents.reduce(0) { $0 + $1.count }
    }
}

nonisolated(unsafe) var sink = 0  // Keeps the work observable; one thread only.
let clock = ContinuousClock()

/// MB/s of one pass of `tool` over `input`.
func speed(_ tool: String, _ input: Input) -> Double {
    let elapsed = clock.measure {
        switch tool {
        case "extract":
            for text in input.texts { sink &+= (try? LLMJSONExtractor().extract(from: text))?.count ?? -1 }
        case "serialization":
            for document in input.documents {
                sink &+=
                    (try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])) == nil
                    ? 0 : 1
            }
        default:
            fail("unknown tool \(tool)")
        }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(input.bytes) / 1e6 / max(seconds, 1e-9)
}

/// `MEDIAN MIN MAX` of `values`.
func summary(_ values: [Double]) -> String {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    return String(format: "%.2f %.2f %.2f", median, sorted[0], sorted[sorted.count - 1])
}

let mode = arguments[1]
switch mode {
case "extract", "serialization":
    // SophonBenchExtract extract|serialization FILE RUNS
    let runs = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 5) : 5
    let input = Input(data)
    print(summary((0..<runs).map { _ in speed(mode, input) }) + " \(input.bytes)")
case "compare":
    // SophonBenchExtract compare FILE RUNS: extract and serialization alternately, run by run;
    // prints a line for each, then the median, min and max of the per-run ratios.
    let runs = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 5) : 5
    let input = Input(data)
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<runs {
        ours.append(speed("extract", input))
        theirs.append(speed("serialization", input))
    }
    print(summary(ours) + " \(input.bytes)")
    print(summary(theirs) + " \(input.bytes)")
    print(summary(zip(ours, theirs).map { $0 / $1 }))
case "scale":
    // SophonBenchExtract scale RUNS FILE...: extract over each file in turn, run by run; a
    // line per file.
    let runs = max(1, Int(arguments[2]) ?? 5)
    let inputs = arguments.dropFirst(3).map { Input(read($0)) }
    var speeds = Array(repeating: [Double](), count: inputs.count)
    for _ in 0..<runs {
        for (index, input) in inputs.enumerated() { speeds[index].append(speed("extract", input)) }
    }
    for (index, input) in inputs.enumerated() { print(summary(speeds[index]) + " \(input.bytes)") }
default:
    fail("unknown mode \(mode)")
}
if sink == Int.min { print(sink) }
