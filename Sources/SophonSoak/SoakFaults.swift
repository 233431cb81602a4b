import Foundation

/// Random replies drawn from the whole fault catalogue of scripts/fake_gemini.py, with small
/// delays so a soak run stays short.
enum SoakFaults {
    /// The `fault`/`kind` names the generator draws from (every entry of the fake server's
    /// docstring catalogue).
    static let catalogue = [
        "generate", "json", "raw", "sse", "rate_limit", "quota_per_day", "retry_after", "internal",
        "overloaded", "gateway_timeout", "not_found", "bad_request", "reset", "stall", "truncated",
        "html_502", "wrapped_error", "stream_error_after", "stream_cut",
    ]

    /// One random reply as a JSON object (Foundation property-list types).
    static func reply(using random: inout some RandomNumberGenerator) -> [String: Any] {
        // About half the replies succeed, so most calls end after a retry or two.
        if Int.random(in: 0..<100, using: &random) < 45 {
            return generate(using: &random)
        }
        let name = catalogue.randomElement(using: &random) ?? "internal"
        switch name {
        case "generate": return generate(using: &random)
        case "json":
            let ok = Bool.random(using: &random)
            return [
                "kind": "json", "status": ok ? 200 : 500,
                "body": ok
                    ? [
                        "candidates": [
                            [
                                "content": ["role": "model", "parts": [["text": "json ok"]]],
                                "finishReason": "STOP",
                            ]
                        ]
                    ]
                    : ["unexpected": true],
            ]
        case "raw":
            return [
                "kind": "raw", "status": 200, "contentType": "application/json",
                "text": "{\"candidates\": [ not json",
            ]
        case "sse":
            return [
                "kind": "sse", "split": true,
                "events": [
                    ["candidates": [["content": ["role": "model", "parts": [["text": "ss"]]]]]],
                    [
                        "candidates": [
                            ["content": ["role": "model", "parts": [["text": "e"]]], "finishReason": "STOP"]
                        ]
                    ],
                ],
            ]
        case "rate_limit":
            return Bool.random(using: &random)
                ? ["fault": "rate_limit", "retryDelay": "0.05s"] : ["fault": "rate_limit"]
        case "retry_after":
            // Mostly a short honoured wait; sometimes longer than the policy's cap (fails at once).
            return [
                "fault": "retry_after",
                "retryAfter": Int.random(in: 0..<10, using: &random) == 0 ? "30" : "0",
            ]
        case "stall":
            // Mostly short; sometimes longer than the request timeout.
            let long = Int.random(in: 0..<8, using: &random) == 0
            return ["fault": "stall", "seconds": long ? 2.5 : Double.random(in: 0.01...0.2, using: &random)]
        case "bad_request":
            return ["fault": "bad_request", "violations": [["field": "contents", "description": "soak"]]]
        case "wrapped_error": return ["fault": "wrapped_error", "status": 503]
        case "stream_error_after", "stream_cut": return ["fault": name, "text": "partial"]
        default: return ["fault": name]
        }
    }

    private static func generate(using random: inout some RandomNumberGenerator) -> [String: Any] {
        var reply: [String: Any] = [
            "kind": "generate", "text": "soak answer", "usage": ["prompt": 3, "candidates": 2],
        ]
        if Bool.random(using: &random) {
            reply["chunks"] = ["soak ", "answer"]
            reply["chunkDelay"] = Double.random(in: 0...0.02, using: &random)
        }
        return reply
    }
}
