import SophonCore

/// The debug description of an error enum: its type, case and fields, for logs
/// (`GeminiError.rateLimited(retryAfter: 120.0 seconds, server: HTTP 429 RESOURCE_EXHAUSTED: ...)`),
/// with anything shaped like an API key masked.
enum ErrorCaseDescription {
    /// `TYPE.CASE(LABEL: VALUE, ...)`: strings quoted, optionals unwrapped (`nil` when
    /// absent), unlabelled fields without a label.
    /// - Parameters:
    ///   - error: the error enum value.
    ///   - typeName: the type's name.
    ///   - bareCase: the name of a case without fields (a mirror cannot tell it when the type
    ///     has its own `description`).
    static func describe(_ error: Any, typeName: String, bareCase: String? = nil) -> String {
        let mirror = Mirror(reflecting: error)
        guard let child = mirror.children.first, let name = child.label else {
            return "\(typeName).\(bareCase ?? "unknown")"
        }
        let payload = Mirror(reflecting: child.value)
        let fields: [String]
        if payload.displayStyle == .tuple {
            fields = payload.children.map { field in
                let value = render(field.value)
                guard let label = field.label, !label.hasPrefix(".") else { return value }
                return "\(label): \(value)"
            }
        } else {
            fields = [render(child.value)]
        }
        return KeyShapeMask.maskLikelyKeys(in: "\(typeName).\(name)(\(fields.joined(separator: ", ")))")
    }

    private static func render(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return render(wrapped)
        }
        if let text = value as? String { return String(reflecting: text) }
        if let items = value as? [Any], mirror.displayStyle == .collection {
            return "[" + items.map(render).joined(separator: ", ") + "]"
        }
        return String(describing: value)
    }
}

extension GeminiError: CustomDebugStringConvertible {
    /// The case and its fields, for logs (`String(reflecting: error)`, `debugPrint`):
    /// `GeminiError.quotaExhausted(quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier", message: "...")`.
    /// The localized sentence for users stays ``description``.
    public var debugDescription: String {
        let bareCase: String? =
            switch self {
            case .missingAPIKey: "missingAPIKey"
            case .emptyResponse: "emptyResponse"
            default: nil
            }
        return ErrorCaseDescription.describe(self, typeName: "GeminiError", bareCase: bareCase)
    }
}

extension GeminiFileError: CustomDebugStringConvertible {
    /// The case and its fields, for logs; the readable sentence stays ``description``.
    public var debugDescription: String { ErrorCaseDescription.describe(self, typeName: "GeminiFileError") }
}

extension GeminiToolError: CustomDebugStringConvertible {
    /// The case and its fields, for logs; the readable sentence stays ``description``.
    public var debugDescription: String { ErrorCaseDescription.describe(self, typeName: "GeminiToolError") }
}
