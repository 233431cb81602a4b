import Foundation
import SophonCore

@testable import SophonGemini

/// Fuzz target `tape`: `GeminiTape(parsing:)` on tape text (as `--replay` loads it, hand
/// edits included), then what a replay does with each exchange: match a request against it,
/// build the replayed response and its chunks.
///
/// Invariants: a tape written back from its exchanges parses to the same exchanges; every
/// recorded request matches itself; errors name a line of the text.
enum TapeFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lineCount = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
        let tape: GeminiTape
        do {
            tape = try GeminiTape(parsing: text)
        } catch {
            _ = error.description
            if let line = line(of: error) {
                fuzzRequire(line >= 1 && line <= max(lineCount, 1), "error line \(line) of \(lineCount)")
            }
            return
        }
        var written = GeminiTape.headerLine + "\n"
        for exchange in tape.exchanges { written += exchange.jsonValue.compactText + "\n" }
        do {
            let reread = try GeminiTape(parsing: written)
            fuzzRequire(
                reread.exchanges.map(\.jsonValue) == tape.exchanges.map(\.jsonValue),
                "written tape reads back different")
        } catch {
            fuzzRequire(false, "written tape does not read back: \(error)")
        }
        var previous: GeminiTapeExchange?
        for (index, exchange) in tape.exchanges.enumerated() {
            fuzzRequire(
                GeminiTapeReplayer.mismatch(recorded: exchange, sent: exchange.request, request: index + 1)
                    == nil,
                "a request does not match itself")
            if let previous,
                let mismatch = GeminiTapeReplayer.mismatch(
                    recorded: previous, sent: exchange.request, request: index + 1)
            {
                _ = GeminiTapeError.mismatch(mismatch).description
            }
            previous = exchange
            _ = GeminiTapeBody.chunks(of: exchange.response.payload)
            for streaming in [false, true] {
                do {
                    _ = try GeminiTapeReplayer.response(replaying: exchange.response, streaming: streaming)
                } catch {
                    _ = "\(error)"
                }
            }
        }
    }
}

extension TapeFuzz {
    /// The line a load error names.
    static func line(of error: GeminiTapeError) -> Int? {
        switch error {
        case .missingHeader(let line), .unsupportedVersion(_, let line), .invalidJSON(let line, _, _),
            .invalidExchange(let line, _):
            line
        default:
            nil
        }
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TapeFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
