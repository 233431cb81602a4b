/// Why ``GeminiSchema/init(for:)`` could not describe a type: the JSON path of the property
/// (`$.author.born`, `$.tags[0]`; `$` for the type itself), the Swift type found there, and the
/// reason.
public struct GeminiSchemaDerivationError: Error, Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// What stopped the derivation.
    public enum Reason: Sendable, Hashable {
        /// A dictionary: its members are not known in advance, and a Gemini schema lists an
        /// object's properties.
        case dictionary
        /// A type that contains itself (directly or through other types); a schema cannot
        /// refer to itself.
        case recursive
        /// A `CaseIterable` enum whose raw values are not strings (the API's `enum` holds
        /// strings only).
        case nonStringEnum
        /// A type that decodes no property (an empty struct, or one that reads its keys with
        /// `allKeys`).
        case noProperties
        /// A facet names a property the type does not have.
        case unknownFacetProperty(String)
        /// The type's `init(from:)` refused the placeholder values of a describing decoder (an
        /// enum that is not `CaseIterable`, a custom check); the decoder's message.
        case refusedPlaceholder(String)
        /// The type uses a decoder feature a schema cannot describe (`superDecoder`).
        case unsupportedDecoding(String)
    }

    /// The JSON path of the property, `$` for the type itself.
    public let path: String
    /// The Swift type at ``path`` (`Dictionary<String, Int>`).
    public let typeName: String
    /// Why it could not be described.
    public let reason: Reason

    /// Creates an error.
    public init(path: String, typeName: String, reason: Reason) {
        self.path = path
        self.typeName = typeName
        self.reason = reason
    }

    /// One line naming the property, the type and what to do:
    /// `cannot derive a schema at $.scores (Dictionary<String, Int>): a dictionary has no fixed properties; adopt GeminiSchemaRepresentable`.
    public var description: String {
        let why: String
        switch reason {
        case .dictionary:
            why = "a dictionary has no fixed properties; use a struct or adopt GeminiSchemaRepresentable"
        case .recursive:
            why = "the type contains itself; adopt GeminiSchemaRepresentable with a bounded schema"
        case .nonStringEnum: why = "enum raw values must be strings (the API's enum holds strings)"
        case .noProperties: why = "the type decodes no property"
        case .unknownFacetProperty(let name): why = "schemaFacets names '\(name)', which is not a property"
        case .refusedPlaceholder(let message):
            why =
                "its init(from:) refused a placeholder (\(message)); make an enum CaseIterable or adopt GeminiSchemaRepresentable"
        case .unsupportedDecoding(let feature):
            why = "\(feature) cannot be described; adopt GeminiSchemaRepresentable"
        }
        return "cannot derive a schema at \(path) (\(typeName)): \(why)"
    }

    /// The case and its fields, for logs: `GeminiSchemaDerivationError(path: "$.scores", type: Dictionary<String, Int>, reason: dictionary)`.
    public var debugDescription: String {
        "GeminiSchemaDerivationError(path: \"\(path)\", type: \(typeName), reason: \(reason))"
    }
}
