import Foundation
import SophonCore

/// Builds the user-facing text of a ``GeminiError`` from the strings table: the one place
/// where error wording is produced.
struct GeminiErrorText {
    let error: GeminiError
    let table: GeminiLocalization

    var text: String {
        switch error {
        case .missingAPIKey: return table.string("error.missingAPIKey")
        case .invalidAPIKey(let message, let server):
            return table.string("error.invalidAPIKey", (server.map { "\($0.label): " } ?? "") + message)
        case .invalidModelID(let id): return table.string("error.invalidModelID", id)
        case .transport(.badResponse, let detail):
            // The network did its part: the reply was cut or is not what the API sends.
            return table.string("error.badResponse", detail)
        case .transport(let failure, let detail):
            return table.string("error.transport", table.string("transport.\(failure.rawValue)"), detail)
        case .http(let status, let apiStatus, let message, _):
            guard let apiStatus, !apiStatus.isEmpty else {
                // A body without a google.rpc status (a proxy's HTML page): no blank before ':'.
                return table.string("error.http.noStatus", String(status), message)
            }
            return table.string("error.http", String(status), apiStatus, message)
        case .rateLimited(let wait, let server):
            let summary =
                wait.map { table.string("error.rateLimited.wait", GeminiErrorText.seconds($0)) }
                ?? table.string("error.rateLimited")
            return summary + (server.map { " \($0)" } ?? "")
        case .quotaExhausted(let quotaId, let message):
            // Only a 429 (RPC status RESOURCE_EXHAUSTED) is read as an exhausted quota.
            return table.string(
                "error.quotaExhausted", quotaId ?? table.string("value.unknown"),
                "HTTP 429 RESOURCE_EXHAUSTED: " + message)
        case .modelRetired(let id, let server):
            return table.string("error.modelRetired", id) + (server.map { " \($0)" } ?? "")
        case .invalidRequest(let message, let violations, let server):
            let lines = violations.map {
                table.string("error.fieldViolation", $0.field ?? "", $0.description ?? "")
            }
            let summary = server.map {
                table.string("error.invalidRequest", "").trimmingCharacters(in: .whitespaces) + " \($0)"
            }
            return ([summary ?? table.string("error.invalidRequest", message)] + lines).joined(
                separator: "\n")
        case .promptBlocked(let reason, let message):
            let text = table.string("error.promptBlocked", reason?.rawValue ?? table.string("value.unknown"))
            return message.map { "\(text) \($0)" } ?? text
        case .contentBlocked(let reason, _): return table.string("error.contentBlocked", reason.rawValue)
        case .truncated: return table.string("error.truncated")
        case .emptyResponse: return table.string("error.emptyResponse")
        case .stoppedWithoutContent(let reason, let message):
            let text = table.string("error.stoppedWithoutContent", reason.rawValue)
            return message.map { "\(text) \($0)" } ?? text
        case .streamEndedEarly: return table.string("error.streamEndedEarly")
        case .decodingFailed(let reason, let excerpt):
            return table.string("error.decodingFailed", reason, excerpt)
        case .mediaTooLarge(let path, let bytes, let limit):
            return table.string("error.mediaTooLarge", path, String(bytes), String(limit))
        case .mediaUnreadable(let path, let reason):
            return table.string("error.mediaUnreadable", path, reason)
        case .toolCallFailed(let reason, let message):
            let text = table.string("error.toolCallFailed", reason.rawValue)
            return message.map { "\(text) \($0)" } ?? text
        }
    }

    /// Seconds with up to three decimals, trailing zeros dropped: `26`, `34.4`, `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

/// The language of user-facing texts and the lookup in its `Localizable.strings` table.
///
/// Languages: `en`, `es`, `zh-Hans`, `zh-Hant`. Chosen explicitly, else from the environment:
/// the first supported entry of `LANGUAGE` (a colon-separated list), then `LC_ALL`,
/// `LC_MESSAGES`, `LANG` (`es_ES.UTF-8` -> `es`; `zh_CN`, `zh_SG` -> `zh-Hans`; `zh_TW`,
/// `zh_HK`, `zh_MO` -> `zh-Hant`); else `en`. Foundation's process locale does not follow
/// `LANG` on Linux, so the table is opened by path (`Bundle(path:)` of the `.lproj`).
public struct GeminiLocalization: Sendable {
    /// The supported language codes.
    public static let supportedLanguages = ["en", "es", "zh-Hans", "zh-Hant"]

    /// The chosen language code.
    public let language: String

    /// Uses `language` when supported (normalised as for the environment), else the environment's.
    public init(language: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment)
    {
        self.language =
            language.flatMap(GeminiLocalization.normalize)
            ?? GeminiLocalization.language(fromEnvironment: environment)
    }

    /// The language the environment asks for, or `en`.
    public static func language(fromEnvironment environment: [String: String]) -> String {
        var candidates: [String] = []
        if let list = environment["LANGUAGE"] { candidates += list.split(separator: ":").map(String.init) }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                candidates.append(value)
                break
            }
        }
        return candidates.lazy.compactMap(normalize).first ?? "en"
    }

    /// Maps a locale name (`es_ES.UTF-8`, `zh-TW`, `zh_Hant_HK`) to a supported language code.
    public static func normalize(_ name: String) -> String? {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        let parts = base.replacingOccurrences(of: "-", with: "_").split(separator: "_").map {
            $0.lowercased()
        }
        guard let first = parts.first else { return nil }
        switch first {
        case "en", "c", "posix": return "en"
        case "es": return "es"
        case "zh":
            let rest = Set(parts.dropFirst())
            return rest.isDisjoint(with: ["hant", "tw", "hk", "mo"]) ? "zh-Hans" : "zh-Hant"
        default: return nil
        }
    }

    /// The bundle of the chosen language's `.lproj`, or the module bundle when not found.
    /// SwiftPM on Linux lowercases the folder names (`zh-hans.lproj`), so both forms are tried.
    var bundle: Bundle {
        for name in [language, language.lowercased()] {
            if let path = Bundle.module.path(forResource: name, ofType: "lproj"),
                let bundle = Bundle(path: path)
            {
                return bundle
            }
        }
        return Bundle.module
    }

    /// The string for `key`, formatted with `arguments` (each a `%@`).
    public func string(_ key: String, _ arguments: String...) -> String {
        let format = NSLocalizedString(key, tableName: "Localizable", bundle: bundle, comment: "")
        guard !arguments.isEmpty else { return format }
        return String(format: format, arguments: arguments.map { $0 as NSString })
    }
}

/// Masks text shaped like a Google API key, for descriptions of errors whose server text
/// may echo a key the client did not know to redact.
enum KeyShapeMask {
    /// `text` with anything shaped like a Google API key (`AIza` followed by 35 characters of
    /// `[0-9A-Za-z_-]`) replaced by its `SecretMask.mask`.
    static func maskLikelyKeys(in text: String) -> String {
        guard text.contains("AIza") else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "AIza") {
            result += rest[..<range.lowerBound]
            let tail = rest[range.upperBound...]
            let body = tail.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            if body.count >= 35 {
                result += SecretMask.mask("AIza" + body.prefix(35))
                rest = tail.dropFirst(35)
            } else {
                result += "AIza"
                rest = tail
            }
        }
        return result + rest
    }
}
