import SophonCore

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
