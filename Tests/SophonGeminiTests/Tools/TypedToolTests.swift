import Foundation
import SophonCore
import SophonGemini
import Synchronization
import Testing

/// Tools declared once from their arguments type (docs/library.md, "Tools"): the declaration is
/// derived, and the arguments are checked and decoded into the type before the handler runs.
@Suite struct TypedToolTests {
    struct WeatherQuery: Decodable, Sendable, GeminiSchemaDescribing {
        enum Unit: String, Decodable, Sendable, CaseIterable { case celsius, fahrenheit }
        var city: String
        var days: Int?
        var unit: Unit
        static let schemaFacets: [String: GeminiSchemaFacets] = ["city": "a city name"]
    }
    struct Weather: Encodable, Sendable { var tempC: Int }
    struct Clock: Decodable, Sendable { var zone: String }

    static func calls(_ parts: String) -> String {
        #"{"candidates": [{"content": {"role": "model", "parts": \#(parts)}, "finishReason": "STOP"}]}"#
    }

    @Test func theDeclarationIsDerivedAndArgumentsArriveDecoded() async throws {
        let seen = Mutex<[String]>([])
        let weather = try GeminiFunctionHandler(
            name: "get_weather", description: "Current weather for one city", arguments: WeatherQuery.self
        ) { query in
            seen.withLock { $0.append("\(query.city) \(query.days ?? 0) \(query.unit)") }
            return Weather(tempC: query.city == "Oslo" ? 4 : 18)
        }
        let clock = try GeminiFunctionHandler(name: "get_time", arguments: Clock.self) { clock in
            seen.withLock { $0.append("clock \(clock.zone)") }
            return "12:00"
        }
        let (client, transport) = cannedClient([
            (
                status: 200,
                body: Self.calls(
                    #"[{"functionCall": {"name": "get_weather", "args": {"city": "Oslo", "days": 2, "unit": "celsius"}}},"#
                        + #"{"functionCall": {"name": "get_time", "args": {"zone": "CET"}}}]"#)
            ),
            (
                status: 200,
                body: Self.calls(#"[{"functionCall": {"name": "get_weather", "args": {"days": 1}}}]"#)
            ),
            (status: 200, body: answer("4 °C in Oslo at 12:00.")),
        ])
        var conversation = GeminiConversation()
        let run = try await client.generateWithTools(
            label: "weather", conversation: &conversation, prompt: "Weather and time in Oslo?",
            handlers: [weather, clock])

        #expect(run.text == "4 °C in Oslo at 12:00.")
        #expect(run.rounds == 3)
        #expect(seen.withLock { $0.sorted() } == ["Oslo 2 celsius", "clock CET"])
        let first = try JSONValue(
            parsing: String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self))
        #expect(
            first["tools"]?.compactText
                == #"[{"functionDeclarations":[{"name":"get_weather","description":"Current weather for one city","#
                + #""parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING","description":"a city name"},"#
                + #""days":{"type":"INTEGER"},"unit":{"type":"STRING","enum":["celsius","fahrenheit"]}},"#
                + #""required":["city","unit"],"propertyOrdering":["city","days","unit"]}},"#
                + #"{"name":"get_time","parameters":{"type":"OBJECT","properties":{"zone":{"type":"STRING"}},"#
                + #""required":["zone"],"propertyOrdering":["zone"]}}]}]"#)
        // The second round's call broke the declaration: the handler did not run, the model
        // was told why.
        let third = try JSONValue(
            parsing: String(decoding: transport.requests[2].body ?? Data(), as: UTF8.self))
        let contents = third["contents"]
        #expect(
            contents?[4]?.compactText
                == #"{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"error":"#
                + #""invalid arguments: $: missing required property \"city\"; $: missing required property \"unit\""}}}]}"#
        )
    }

    struct NoArguments: Decodable, Sendable {}

    @Test func argumentsWithoutPropertiesDeclareNoParameters() throws {
        let handler = try GeminiFunctionHandler(name: "now", arguments: NoArguments.self) { _ in "12:00" }
        #expect(handler.declaration == FunctionDeclaration(name: "now"))
    }

    @Test func anArgumentsTypeItCannotDescribeIsAnError() {
        struct Bag: Decodable, Sendable { var counts: [String: Int] }
        #expect(
            throws: GeminiSchemaDerivationError(
                path: "$.counts", typeName: "Dictionary<String, Int>", reason: .dictionary)
        ) {
            try GeminiFunctionHandler(name: "bag", arguments: Bag.self) { _ in 1 }
        }
    }
}
