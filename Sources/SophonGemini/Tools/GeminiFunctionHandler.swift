import Foundation
import SophonCore

/// A function the model may call and the code that serves it (docs/library.md, "Tools").
///
/// The handler receives the call's arguments (a JSON object, `{}` when the model sent none)
/// after they were checked against ``declaration``; what it returns is the function response
/// (a non-object is sent as `{"result": VALUE}`); what it throws goes back to the model as
/// `{"error": MESSAGE}`.
public struct GeminiFunctionHandler: Sendable {
    /// The declaration sent to the model.
    public var declaration: FunctionDeclaration
    /// Runs one call.
    public var run: @Sendable (JSONValue) async throws -> JSONValue

    /// A handler taking the arguments as JSON.
    public init(
        _ declaration: FunctionDeclaration, run: @escaping @Sendable (JSONValue) async throws -> JSONValue
    ) {
        self.declaration = declaration
        self.run = run
    }

    /// A handler whose arguments are decoded leniently (SophonCore's `LenientJSONDecoder`: `"18"` reads as
    /// 18, `"yes"` as `true`) into `Arguments`, and whose result is encoded to JSON.
    public static func typed<Arguments: Decodable & Sendable, Result: Encodable & Sendable>(
        _ declaration: FunctionDeclaration, _ arguments: Arguments.Type,
        run: @escaping @Sendable (Arguments) async throws -> Result
    ) -> GeminiFunctionHandler {
        GeminiFunctionHandler(declaration) { value in
            let decoded = try LenientJSONDecoder().decode(Arguments.self, from: value).value
            let result = try await run(decoded)
            return try JSONValue(encoding: result)
        }
    }
}

extension JSONValue {
    /// The JSON of an `Encodable` value (through `JSONEncoder`, then the parser).
    init<T: Encodable>(encoding value: T) throws {
        let data = try OrderedJSONEncoder().encodeData(value)
        self = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }
}

extension GeminiFunctionHandler {
    /// A tool declared once: the function's `parameters` are derived from `arguments`
    /// (``GeminiSchema/init(for:)``), and each call's arguments are checked against them and
    /// decoded into `Arguments` (leniently, as ``typed(_:_:run:)`` does) before `run` runs.
    ///
    /// ```swift
    /// struct WeatherQuery: Decodable, Sendable { var city: String }
    /// let weather = try GeminiFunctionHandler(
    ///     name: "get_weather", description: "Current weather for one city", arguments: WeatherQuery.self
    /// ) { query in ["tempC": query.city == "Oslo" ? 4 : 18] }
    /// ```
    /// - Parameters:
    ///   - name: the function name (``FunctionDeclaration/isValidName(_:)``).
    ///   - description: what the function does; the model reads it to choose.
    ///   - arguments: the arguments type; a type with no properties declares no parameters.
    ///   - run: answers one call; what it returns is encoded as the function response (a
    ///     non-object as `{"result": VALUE}`), what it throws goes back as `{"error": MESSAGE}`.
    /// - Throws: ``GeminiSchemaDerivationError`` when `arguments` cannot be described.
    public init<Arguments: Decodable & Sendable, Result: Encodable & Sendable>(
        name: String, description: String? = nil, arguments: Arguments.Type,
        run: @escaping @Sendable (Arguments) async throws -> Result
    ) throws(GeminiSchemaDerivationError) {
        let parameters: GeminiSchema?
        do {
            parameters = try GeminiSchema(for: arguments)
        } catch  where error.reason == .noProperties && error.path == "$" {
            parameters = nil
        }
        self = .typed(
            FunctionDeclaration(name: name, description: description, parameters: parameters), arguments,
            run: run)
    }
}
