// `SophonBenchExtract`: the Swift side of scripts/bench-extract (not shipped; built in release
// by that script only).
//
//   SophonBenchExtract extract FILE RUNS        LLMJSONExtractor on FILE
//   SophonBenchExtract serialization FILE RUNS  Foundation's JSONSerialization on FILE
//   SophonBenchExtract corpus FILE              the accuracy corpus: right/refused/wrong
//   SophonBenchExtract show FILE                each value found, its range and repairs
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
guard arguments.count >= 3 else { fail("usage: extract|serialization FILE RUNS, or corpus FILE") }
guard let data = FileManager.default.contents(atPath: arguments[2]) else {
    fail("cannot read \(arguments[2])")
}

if arguments[1] == "corpus" {
    let (right, refused, wrong) = BenchCorpus.score(String(decoding: data, as: UTF8.self))
    print("\(right) \(refused) \(wrong)")
    exit(0)
}

if arguments[1] == "show" {
    do {
        for found in try LLMJSONExtractor().extract(from: String(decoding: data, as: UTF8.self)) {
            print(found.value.compactText, found.range)
            for repair in found.repairs { print("  \(repair.kind) \(repair.offset): \(repair.description)") }
        }
    } catch {
        print("error: \(error)")
    }
    exit(0)
}

let runs = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 5) : 5
let documents = data.split(separator: 0x1E, omittingEmptySubsequences: true).map { Data($0) }
let texts = documents.map { String(decoding: $0, as: UTF8.self) }
let bytes = documents.reduce(0) { $0 + $1.count }
var sink = 0
var speeds: [Double] = []
let clock = ContinuousClock()
for _ in 0..<runs {
    let elapsed = clock.measure {
        switch arguments[1] {
        case "extract":
            for text in texts {
                sink &+= (try? LLMJSONExtractor().extract(from: text))?.count ?? -1
            }
        case "serialization":
            for document in documents {
                sink &+=
                    (try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])) == nil
                    ? 0 : 1
            }
        default:
            fail("unknown mode \(arguments[1])")
        }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    speeds.append(Double(bytes) / 1e6 / max(seconds, 1e-9))
}
speeds.sort()
let median =
    speeds.count % 2 == 1
    ? speeds[speeds.count / 2] : (speeds[speeds.count / 2 - 1] + speeds[speeds.count / 2]) / 2
print(String(format: "%.2f %.2f %.2f %d", median, speeds[0], speeds[speeds.count - 1], bytes))
if sink == Int.min { print(sink) }  // Keeps the work observable.
