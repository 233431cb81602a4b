import Foundation
import SophonTestSupport
import Testing

@testable import SophonGemini

/// Key handling, countTokens and the paged models list over real HTTP.
@Suite(.childSlots) struct KeyAndListIntegrationTests {
    @Test(arguments: ["en", "es", "zh-Hans", "zh-Hant"])
    func aWrongKeyEchoedByTheServerNeverAppearsInTheDescription(language: String) async throws {
        let server = try await FakeGeminiServer(key: "the-right-key")
        let key = "AIzaSyWRONG-key-for-tests-0123456789abcd"
        let client = GeminiAPIClient(
            configuration: .testing(key: key, recorder: SleepRecorder(), baseURL: server.baseURL))
        var failure: GeminiError?
        do {
            _ = try await client.generateText(label: "t", contents: [.user("hi")])
        } catch let error as GeminiError {
            failure = error
        }
        let error = try #require(failure)
        #expect(
            error
                == .invalidAPIKey(
                    message: "API key not valid. Please pass a valid API key. (Invalid API key: ••••abcd)",
                    server: GeminiServerStatus(
                        status: 400, apiStatus: "INVALID_ARGUMENT",
                        message: "API key not valid. Please pass a valid API key.")))
        #expect(!error.description(language: language).contains(key))
        #expect(error.description(language: language).contains("••••abcd"))
        #expect(!error.isRetryable)
        let requests = try await server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.headers["x-goog-api-key"] == key)
        #expect(requests.first?.path.contains(key) == false)
    }

    @Test func theServerRefusesARequestWithoutAKey() async throws {
        let server = try await FakeGeminiServer()
        let url = server.baseURL.appendingPathComponent("v1beta/models/gemini-3.8-flash:generateContent")
        let response = try await URLSessionTransport().send(
            GeminiHTTPRequest(
                method: "POST", url: url, headers: [:], body: Data("{}".utf8), timeout: .seconds(10)))
        let body = try await response.collectBody()
        #expect(response.status == 403)
        #expect(response.headers["content-type"] == "application/json; charset=UTF-8")
        #expect(GoogleRPCErrorBody.parse(body)?.status == "PERMISSION_DENIED")
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("{\n  \"error\": {\n    \"code\": 403,"))
    }

    @Test func decodedFunctionArgumentsAreDeterministic() async throws {
        let body =
            #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"zeta": 1, "alpha": {"b": 2, "a": [true, null, "x"]}, "mid": 1.5}}}]}, "finishReason": "STOP"}]}"#
        for _ in 0..<5 {
            let response = try JSONDecoder().decode(GenerateContentResponse.self, from: Data(body.utf8))
            let args = try #require(response.candidates?.first?.content?.parts?.first?.functionCall?.args)
            #expect(args.compactText == #"{"alpha":{"a":[true,null,"x"],"b":2},"mid":1.5,"zeta":1}"#)
        }
    }

    @Test func countTokens() async throws {
        let server = try await FakeGeminiServer()
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let reply = try await client.countTokens(contents: [.user("one two three four five")])
        #expect(reply.totalTokens == 5)
        #expect(reply.promptTokensDetails?.first?.tokenCount == 5)
        #expect(try await server.paths() == ["/v1beta/models/gemini-3.8-flash:countTokens"])
        let body = try #require(try await server.requests().first?.bodyText)
        #expect(body == #"{"contents":[{"role":"user","parts":[{"text":"one two three four five"}]}]}"#)
    }

    @Test func listAllModelsFollowsPageTokens() async throws {
        let server = try await FakeGeminiServer()
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let models = try await client.listAllModels(pageSize: 4)
        #expect(models.count == 9)
        #expect(models.first?.id == "gemini-2.5-flash-lite")
        #expect(models.last?.supportedGenerationMethods == ["embedContent"])
        #expect(models.last?.temperature == nil)
        #expect(
            try await server.paths() == [
                "/v1beta/models?pageSize=4", "/v1beta/models?pageSize=4&pageToken=page-4",
                "/v1beta/models?pageSize=4&pageToken=page-8",
            ])
    }

    @Test(arguments: [
        "http://127.0.0.1:PORT", "http://127.0.0.1:PORT/", "http://127.0.0.1:PORT/v1beta",
        "http://127.0.0.1:PORT/v1beta/",
    ])
    func baseURLForms(form: String) async throws {
        let server = try await FakeGeminiServer()
        let url = try #require(URL(string: form.replacingOccurrences(of: "PORT", with: String(server.port))))
        let client = GeminiAPIClient(configuration: .testing(recorder: SleepRecorder(), baseURL: url))
        let result = try await client.generateText(label: "t", contents: [.user("hi")])
        #expect(result.value == "Hello from the fake Gemini server.")
        #expect(try await server.paths() == ["/v1beta/models/gemini-3.8-flash:generateContent"])
    }

    @Test func structuredCallOverHTTP() async throws {
        struct City: Decodable, Sendable, Equatable {
            let name: String
            let population: Int
        }
        let server = try await FakeGeminiServer(replies: [
            #"{"kind": "generate", "text": "{\"name\": \"Lyon\", \"population\": 522250}", "thought": "Thinking."}"#
        ])
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let result = try await client.generateStructured(
            City.self, label: "city", prompt: "A French city",
            schema: .object(
                properties: ["name": .string(), "population": .integer()], required: ["name", "population"]),
            retryPolicy: .minimal)
        #expect(result.value == City(name: "Lyon", population: 522250))
        #expect(result.usage?.totalTokenCount == 11)
        #expect(result.response.thoughtText == "Thinking.")
    }
}
