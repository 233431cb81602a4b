import Foundation

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
