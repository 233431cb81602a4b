import Foundation
import SophonCore

@testable import SophonGemini

/// Fuzz target `response`: a response body as the client reads it, for a status chosen by the
/// first byte. A 200 body is decoded as `GenerateContentResponse` (then checked, accumulated
/// and its structured JSON decoded), `CountTokensResponse` and `ListModelsResponse`; any body
/// goes through the error classification (google.rpc.Status, `Retry-After`, `RetryInfo`) and
/// every resulting error is rendered (in a language picked by the first byte too).
enum ResponseFuzz {
    static let statuses = [200, 400, 401, 403, 404, 408, 429, 500, 503, 504]
    /// A key the seeds put in error bodies (Google's invalid-key error echoes the key).
    static let fuzzKey = "AIzaSyFuzzKey0123456789abcdefghijklmnop"

    /// The schema of ``Reply``, for schema-guided candidate choice.
    static let replySchema = try? GeminiSchema.parseSpec("{ title: string, year?: integer, tags?: [string] }")

    struct Reply: Decodable {
        var title: String
        var year: Int?
        var tags: [String]?
    }

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let status = statuses[Int(input.byte()) % statuses.count]
        let body = Data(input.rest)
        let errors: [GeminiError]
        if status == 200 {
            errors = success(body)
        } else {
            let retryAfter = String(decoding: input.rest.prefix(32), as: UTF8.self)
            let attempt = GeminiStatusClassifier.classify(
                status: status, headers: ["Retry-After": retryAfter], body: body, modelID: "gemini-2.5-flash")
            if let wait = attempt.serverWait { fuzzRequire(wait >= .zero, "negative server wait \(wait)") }
            errors = [attempt.error]
        }
        let languages = GeminiLocalization.supportedLanguages
        let language = languages[Int(bytes.first ?? 0) / 10 % languages.count]
        for error in errors {
            _ = error.description(language: language)
            let redacted = error.redacting([fuzzKey]).description
            fuzzRequire(!redacted.contains(fuzzKey), "key left in a redacted error: \(redacted)")
        }
    }

    /// The errors a 200 body leads to (decoding, reply checks, structured decoding).
    static func success(_ body: Data) -> [GeminiError] {
        var errors: [GeminiError] = []
        _ = try? JSONDecoder().decode(CountTokensResponse.self, from: body)
        _ = try? JSONDecoder().decode(ListModelsResponse.self, from: body)
        guard let response = try? JSONDecoder().decode(GenerateContentResponse.self, from: body) else {
            if let status = GoogleRPCErrorBody.parse(body) {
                errors.append(
                    GeminiStatusClassifier.classify(
                        status: status.code ?? 500, headers: [:], body: body, modelID: nil
                    ).error)
            }
            return errors
        }
        _ = response.text
        _ = response.thoughtText
        var accumulator = GeminiStreamAccumulator()
        accumulator.add(response)
        accumulator.add(response)
        fuzzRequire(accumulator.text == response.text + response.text, "accumulated text")
        do {
            try ReplyCheck.check(response)
        } catch let error as GeminiError {
            errors.append(error)
        } catch {
            fuzzRequire(false, "ReplyCheck threw \(error)")
        }
        for (schema, allowPartial) in [(nil, false), (replySchema, true)] {
            do {
                _ = try StructuredReplyDecoder.decode(
                    Reply.self, from: response, schema: schema, allowPartial: allowPartial)
            } catch let error as GeminiError {
                errors.append(error)
            } catch {
                fuzzRequire(false, "StructuredReplyDecoder threw \(error)")
            }
        }
        return errors
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ResponseFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
