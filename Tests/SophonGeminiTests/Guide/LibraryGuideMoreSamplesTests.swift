import Foundation
import SophonCore
import SophonGemini
import Testing

/// The samples of docs/library.md beyond the calls themselves: errors, the model catalog,
/// schemas, keys, lenient decoding and tapes, each with its exact result.
@Suite struct LibraryGuideMoreSamplesTests {
    // MARK: Errors

    @Test func aServerWaitPastTheBudgetFailsFast() async throws {
        let tooLong = """
            {"error": {"code": 429, "message": "Resource exhausted.", "status": "RESOURCE_EXHAUSTED",
              "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "120s"}]}}
            """
        let (client, transport) = cannedClient([(status: 429, body: tooLong)])
        do {
            _ = try await client.generateText(label: "hello", contents: [.user("Hi")])
            Issue.record("expected a rate limit")
        } catch let error as GeminiError {
            guard case .rateLimited(let wait, let server) = error else {
                Issue.record("expected rateLimited, got \(error)")
                return
            }
            #expect(wait == .seconds(120))
            #expect(
                server
                    == GeminiServerStatus(
                        status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "Resource exhausted."))
            #expect(error.isRetryable)
            #expect(error.serverStatus?.status == 429)
            #expect(
                error.description(language: "en")
                    == "Rate limited by the server: retry in 120 s. HTTP 429 RESOURCE_EXHAUSTED: Resource exhausted."
            )
            #expect(error.localizedDescription == error.description(language: nil))
        }
        #expect(transport.requests.count == 1)
    }

    @Test func errorDescriptionsInEachLanguage() async throws {
        let client = GeminiAPIClient(configuration: GeminiClientConfiguration(apiKeyProvider: { nil }))
        await #expect(throws: GeminiError.missingAPIKey) {
            try await client.generateText(label: "hello", contents: [.user("Hi")])
        }
        let error = GeminiError.missingAPIKey
        #expect(!error.isRetryable)
        #expect(error.description(language: "en") == "No Gemini API key is configured.")
        #expect(error.description(language: "es") == "No hay ninguna clave de API de Gemini configurada.")
        #expect(error.description(language: "zh-Hans") == "未配置 Gemini API 密钥。")
        #expect(error.description(language: "zh-Hant") == "未設定 Gemini API 金鑰。")
        #expect(GeminiLocalization(environment: ["LANG": "es_ES.UTF-8"]).language == "es")
        #expect(GeminiLocalization.language(fromEnvironment: ["LANGUAGE": "zh_TW:en"]) == "zh-Hant")
    }

    // MARK: Model catalog

    @Test func aStoredSelectionWalksSuccessors() {
        #expect(GeminiModel.gemini25FlashLite.successorChain == [.gemini31FlashLite, .gemini35FlashLite])
        let resolution = GeminiModel.gemini25FlashLite.resolved(
            in: [.gemini35FlashLite, .gemini38Flash], fallback: .gemini35FlashLite)
        #expect(resolution.resolved == .gemini35FlashLite)
        #expect(
            resolution.notice
                == "gemini-2.5-flash-lite is not available; using its successor gemini-3.5-flash-lite")

        let store = InMemoryGeminiModelStore(selection: "gemini-2.5-pro")
        let client = GeminiAPIClient(
            configuration: GeminiClientConfiguration(
                defaultModel: .gemini38Flash, fallbackModel: .gemini35FlashLite,
                availableModels: [.gemini35FlashLite, .gemini38Flash], modelStore: store))
        #expect(client.selectedModelID == "gemini-3.5-flash-lite")
        #expect(GeminiModel(selection: "my-tuned-model") == .custom("my-tuned-model"))
        #expect(GeminiModel.closestPreset(to: "gemini-3.8-flsh") == .gemini38Flash)
    }

    // MARK: Schemas

    @Test func schemasFromTheTypeSyntax() throws {
        let schema = try GeminiSchema.parseSpec(
            #"{ title: string, year: integer, rating?: number "0-10", tags: [string], status: "draft" | "final" }"#
        )
        #expect(schema.required == ["title", "year", "tags", "status"])
        #expect(
            schema.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"title":{"type":"STRING"},"year":{"type":"INTEGER"},"rating":{"type":"NUMBER","description":"0-10"},"tags":{"type":"ARRAY","items":{"type":"STRING"}},"status":{"type":"STRING","enum":["draft","final"]}},"required":["title","year","tags","status"],"propertyOrdering":["title","year","rating","tags","status"]}"#
        )

        let concise = try GeminiSchema.parseSpec("name, age int, bio: a short bio")
        #expect(
            concise.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"name":{"type":"STRING"},"age":{"type":"INTEGER"},"bio":{"type":"STRING","description":"a short bio"}},"required":["name","age","bio"],"propertyOrdering":["name","age","bio"]}"#
        )

        do {
            _ = try GeminiSchema.parseSpec("{ title string }")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.description == "expected ':' after property name at column 9")
            #expect(error.line == 1)
            #expect(error.column == 9)
        }
    }

    @Test func schemasFromJSONSchema() throws {
        let document = try JSONValue(
            parsing: #"""
                {"type": "object", "additionalProperties": false, "required": ["name"],
                 "properties": {"name": {"type": "string"}, "nickname": {"type": ["string", "null"]}}}
                """#)
        let conversion = try JSONSchemaConverter.convert(document)
        #expect(
            conversion.schema.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"name":{"type":"STRING"},"nickname":{"type":"STRING","nullable":true}},"required":["name"],"propertyOrdering":["name","nickname"]}"#
        )
        #expect(
            conversion.notes.map(\.description) == [
                #"$: dropped "additionalProperties" (not accepted by the Gemini API)"#
            ])
        #expect(try GeminiSchemaDocument(document).dialect == .jsonSchema)

        let violations = conversion.schema.validate(try JSONValue(parsing: #"{"name": 42}"#))
        #expect(violations.map(\.description) == ["$.name: expected string, got number 42"])
    }

    // MARK: Keys

    @Test func keysFromTheStoreAndTheEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "guide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keychain = SophonKeychain(environment: ["SOPHON_HOME": folder.path])
        let source = try keychain.save("my-test-key-0000cD3f", account: "com.myapp.geminiAPIKey")
        #expect(source == .file(path: folder.appendingPathComponent("keys.json").path))

        let client = GeminiAPIClient(
            configuration: GeminiClientConfiguration(
                keychainAccount: "com.myapp.geminiAPIKey",
                apiKeyProvider: GeminiClientConfiguration.keychainKeyProvider(
                    account: "com.myapp.geminiAPIKey", keychain: keychain)))
        #expect(client.hasAPIKey)
        #expect(client.maskedAPIKey == "••••cD3f")

        let withVariable = SophonKeychain(
            environment: ["SOPHON_HOME": folder.path, "GOOGLE_API_KEY": "key-from-the-environment"])
        #expect(try withVariable.load()?.source == .environment(variable: "GOOGLE_API_KEY"))
        #expect(try withVariable.load(account: "com.myapp.geminiAPIKey")?.secret == "my-test-key-0000cD3f")
    }

    // MARK: Lenient decoding

    struct Review: Decodable {
        let title: String
        let year: Int
        let rating: Double
        let tags: [String]
        let director: String?
    }

    @Test func lenientDecodingOfAMessyReply() throws {
        let reply = """
            Sure! Here is the review:
            ```json
            {"title": "Dune", "year": "2021", "rating": "85%", "tags": "sci-fi, epic", "director": "N/A",}
            ```
            """
        let extracted = try LLMJSONExtractor().extractFirst(from: reply)
        #expect(
            extracted.value.compactText
                == #"{"title":"Dune","year":"2021","rating":"85%","tags":"sci-fi, epic","director":"N/A"}"#)
        #expect(
            extracted.repairs.map(\.description) == [
                "took the value from the fenced block at offset 26",
                "removed the trailing comma at offset 126",
            ])

        let decoded = try LenientJSONDecoder().decode(Review.self, from: extracted.value)
        #expect(decoded.value.year == 2021)
        #expect(decoded.value.rating == 85)
        #expect(decoded.value.tags == ["sci-fi", "epic"])
        #expect(decoded.value.director == nil)
        #expect(
            decoded.coercions.map(\.description) == [
                #"$.year: "2021" read as 2021"#, #"$.rating: "85%" read as 85"#,
                #"$.tags: "sci-fi, epic" read as ["sci-fi","epic"]"#, #"$.director: "N/A" read as null"#,
            ])

        #expect(LLMDecoding.confidence(.string("85%")) == 0.85)
        let cut = try LLMJSONExtractor().extract(from: #"{"title": "Dune", "tags": ["sci-fi", "epi"#)
        #expect(cut.map(\.value.compactText) == [#"{"title":"Dune","tags":["sci-fi","epi"]}"#])
        #expect(
            cut.flatMap(\.repairs).map(\.description) == [
                "closed the unterminated string that starts at offset 37",
                "closed the '[' left open at offset 26",
                "closed the '{' left open at offset 0",
            ])
    }

    struct Verdict: Decodable {
        let label: String
        let confidence: Confidence
    }

    @Test func aConfidenceInADecodableType() throws {
        let verdict = try LenientJSONDecoder().decode(
            Verdict.self, from: JSONValue(parsing: #"{"label": "spam", "confidence": "85%"}"#))
        #expect(verdict.value.confidence.value == 0.85)
        #expect(verdict.coercions.map(\.description) == [#"$.confidence: "85%" read as 0.85"#])
    }

    // MARK: Tapes

    @Test func recordThenReplayATape() async throws {
        let tapeURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "guide-\(UUID().uuidString).tape")
        defer { try? FileManager.default.removeItem(at: tapeURL) }

        let recorder = try GeminiTapeRecorder(
            wrapping: CannedTransport([(status: 200, body: answer("Hello from the tape."))]),
            tapeURL: tapeURL, secrets: ["test-key"])
        let recording = GeminiAPIClient(
            configuration: GeminiClientConfiguration(apiKeyProvider: { "test-key" }), transport: recorder)
        let first = try await recording.generateText(label: "hello", contents: [.user("Hi")])

        let replayer = try GeminiTapeReplayer(contentsOf: tapeURL)
        let replaying = GeminiAPIClient(
            configuration: GeminiClientConfiguration().replayingTape(), transport: replayer)
        let second = try await replaying.generateText(label: "hello", contents: [.user("Hi")])

        #expect(first.value == "Hello from the tape.")
        #expect(second.value == "Hello from the tape.")
        #expect(replayer.remainingCount == 0)
        #expect(!(try String(contentsOf: tapeURL, encoding: .utf8)).contains("test-key"))
        await #expect(throws: GeminiTapeError.self) {
            try await replaying.generateText(label: "hello", contents: [.user("Hi")])
        }
    }
}
