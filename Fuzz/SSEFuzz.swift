import Foundation
import SophonCore

@testable import SophonGemini

/// Fuzz target `sse`: a `streamGenerateContent?alt=sse` body through the client's stream
/// reader (`SSEParser` + `StreamReader`: events decoded as `GenerateContentResponse`, raw error
/// bodies, truncation), delivered in pieces whose sizes come from the first byte, as the
/// network splits them.
///
/// Invariants: the events do not depend on how the body was split (checked against one
/// whole-body parse); only `AttemptError` is thrown.
enum SSEFuzz {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let step = Int(input.byte() % 17) + 1
        let body = Array(input.rest)

        // Split-independence of the parser itself.
        var whole = SSEParser()
        let expected = whole.feed(Data(body)) + whole.finish()
        var pieces = SSEParser()
        var got: [SSEParser.Item] = []
        var start = 0
        while start < body.count {
            let end = min(body.count, start + step)
            got += pieces.feed(Data(body[start..<end]))
            start = end
        }
        got += pieces.finish()
        fuzzRequire(got == expected, "events depend on the split (step \(step))")

        // The reader as the client runs it.
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: GenerateContentResponse.self)
        _ = stream
        var reader = StreamReader(continuation: continuation)
        do {
            start = 0
            while start < body.count {
                let end = min(body.count, start + step)
                try reader.consume(Data(body[start..<end]))
                start = end
            }
            try reader.finish()
        } catch let error as AttemptError {
            _ = error.error.description
        } catch {
            fuzzRequire(false, "not an AttemptError: \(error)")
        }
        continuation.finish()
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    SSEFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
