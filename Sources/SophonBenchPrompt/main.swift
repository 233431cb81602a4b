// The Swift side of scripts/bench-prompt.py (docs/benchmarks.md, "Prompt rendering"): not shipped.
//
//   SophonBenchPrompt FILE DATA SECONDS   parses and renders the prompt file FILE with the data
//                                         JSON file DATA ({input, context, messages}) again and
//                                         again for SECONDS; prints one JSON line: renders,
//                                         seconds, renders per second, and the size of the last
//                                         rendering's JSON (to check both sides render it whole)
import Foundation
import SophonCore
import SophonPrompt

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[3]),
    let source = FileManager.default.contents(atPath: arguments[1]).map({
        String(decoding: $0, as: UTF8.self)
    }),
    let dataText = FileManager.default.contents(atPath: arguments[2]).map({
        String(decoding: $0, as: UTF8.self)
    })
else {
    FileHandle.standardError.write(Data("usage: SophonBenchPrompt FILE DATA SECONDS\n".utf8))
    exit(2)
}
let data = try JSONValue(parsing: dataText)
let renderer = PromptRenderer()
// As dotpromptz's `Dotprompt().render(source, data)`: the source is parsed on every render.
let clock = ContinuousClock()
let start = clock.now
var renders = 0
var last = JSONValue.null
while clock.now - start < .seconds(seconds) {
    last = try renderer.render(try PromptDocument(parsing: source, file: arguments[1]), data: data)
    renders += 1
}
let elapsed = clock.now - start
let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(
    JSONValue.object([
        JSONMember("renders", .number(JSONNumber(renders))),
        JSONMember("seconds", JSONNumber(total).map(JSONValue.number) ?? .null),
        JSONMember("per_second", JSONNumber(Double(renders) / total).map(JSONValue.number) ?? .null),
        JSONMember("bytes", .number(JSONNumber(last.compactText.utf8.count))),
    ]).compactText)
