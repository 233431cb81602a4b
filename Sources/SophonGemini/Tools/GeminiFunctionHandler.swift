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

    /// A handler whose arguments are decoded leniently (``LenientJSONDecoder``: `"18"` reads as
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
