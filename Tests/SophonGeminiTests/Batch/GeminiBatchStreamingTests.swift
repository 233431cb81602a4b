import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// A job too large to hold whole: ``GeminiBatchInput`` (inline or file by size) and
/// ``GeminiBatchOperationScanner`` (answers read one at a time).
@Suite struct GeminiBatchStreamingTests {
    static func request(_ text: String) -> GenerateContentRequest {
        GenerateContentRequest(contents: [Content(role: "user", parts: [.text(text)])])
    }

    static let requests = [(key: "a", request: request("alpha")), (key: "b\"", request: request("bravo"))]

    @Test func atTheLimitTheBodyIsInlineAndTheSameAsBatchBody() throws {
        let expected = try GeminiAPIClient.batchBody(displayName: "n", requests: Self.requests)
        let input = try GeminiBatchInput(displayName: "n", inlineLimit: expected.count)
        for item in Self.requests { try input.append(key: item.key, request: item.request) }
        #expect(input.inlineBodySize == expected.count)
        guard case .inline(let body) = try input.finish() else {
            Issue.record("not inline")
            return
        }
        #expect(body == expected)
    }

    @Test func oneBytePastTheLimitTheRequestsAreAJSONLinesFile() throws {
        let expected = try GeminiAPIClient.batchBody(displayName: "n", requests: Self.requests)
        let input = try GeminiBatchInput(displayName: "n", inlineLimit: expected.count - 1)
        for item in Self.requests { try input.append(key: item.key, request: item.request) }
        guard case .file(let url, let bytes) = try input.finish() else {
            Issue.record("not a file")
            return
        }
        let lines = try Self.requests.map {
            try GeminiAPIClient.batchFileLine(key: $0.key, request: $0.request)
        }
        let file = try Data(contentsOf: url)
        #expect(file == lines.reduce(Data(), +))
        #expect(bytes == file.count)
        #expect(
            String(decoding: file, as: UTF8.self).hasPrefix(
                #"{"key":"a","request":{"contents":[{"role":"user","parts":[{"text":"alpha"}]}]}}"# + "\n"))
    }

    static func scan(_ text: String) throws -> (items: [GeminiBatchItem], batch: GeminiBatch) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        var scanner = GeminiBatchOperationScanner(descriptor: descriptor)
        var items: [GeminiBatchItem] = []
        try scanner.scan { items.append(try GeminiAPIClient.batchItem(Data($0))) }
        let batch = GeminiBatch(
            try JSONDecoder().decode(GeminiBatchOperation.self, from: Data(scanner.stripped)))
        return (items, batch)
    }

    @Test func answersInBothPlacesAreHandedOutOnceAndTheRestDecodes() throws {
        let items = """
            [
              {"response": {"candidates": [{"content": {"parts": [{"text": "a \\"quoted\\" ]} answer"}]}}]},
               "metadata": {"key": "k1"}},
              {"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}, "metadata": {"key": 2}}
            ]
            """
        let text = """
            {
              "name": "batches/x",
              "metadata": {"displayName": "n", "state": "BATCH_STATE_SUCCEEDED",
                "batchStats": {"requestCount": "2", "successfulRequestCount": "1", "failedRequestCount": "1"},
                "output": {"inlinedResponses": {"inlinedResponses": \(items)}}},
              "done": true,
              "response": {"@type": "t", "inlinedResponses": {"inlinedResponses": \(items)}}
            }
            """
        let (found, batch) = try Self.scan(text)
        #expect(found.map(\.key) == ["k1", "2"])
        #expect(found.first?.response?.text == #"a "quoted" ]} answer"#)
        #expect(found.last?.error?.code == 400)
        #expect(batch.name == "batches/x")
        #expect(batch.state == .succeeded)
        #expect(batch.successfulCount == 1)
        #expect(batch.failedCount == 1)
        #expect(batch.inlinedResponses?.isEmpty == true)
    }

    @Test func answersOnlyInResponseAndAPendingJobWithNone() throws {
        let (found, batch) = try Self.scan(
            #"{"name":"batches/y","response":{"inlinedResponses":{"inlinedResponses":[{"response":{}}]}},"#
                + #""metadata":{"state":"JOB_STATE_RUNNING"}}"#)
        #expect(found.count == 1)
        #expect(found.first?.key == nil)
        #expect(batch.state == .running)
        let (none, pending) = try Self.scan(
            #"{"name":"batches/z","metadata":{"state":"BATCH_STATE_PENDING"}}"#)
        #expect(none.isEmpty)
        #expect(pending.inlinedResponses == nil)
    }

    @Test func aBodyThatBreaksOffIsMalformed() throws {
        #expect(throws: GeminiBatchOperationScanner.Malformed.self) {
            try Self.scan(
                #"{"name":"batches/x","metadata":{"output":{"inlinedResponses":{"inlinedResponses":[{"#)
        }
    }
}
