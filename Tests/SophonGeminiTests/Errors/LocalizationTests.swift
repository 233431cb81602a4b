import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// The strings tables: same keys and placeholders everywhere, loaded per language, chosen from
/// the environment.
@Suite struct LocalizationTests {
    static let languages = GeminiLocalization.supportedLanguages

    static func table(_ language: String) throws -> [String: String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SophonGemini/Resources/\(language).lproj/Localizable.strings")
        let data = try Data(contentsOf: url)
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        return try #require(plist as? [String: String])
    }

    static func placeholders(_ text: String) -> [String] {
        var result: [String] = []
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            let next = rest.index(after: percent)
            guard next < rest.endIndex else { break }
            result.append("%" + String(rest[next]))
            rest = rest[rest.index(after: next)...]
        }
        return result
    }

    @Test(arguments: languages)
    func everyTableHasEveryKeyWithTheSamePlaceholders(language: String) throws {
        let english = try Self.table("en")
        let table = try Self.table(language)
        #expect(Set(table.keys) == Set(english.keys))
        for (key, value) in english {
            #expect(Self.placeholders(table[key] ?? "") == Self.placeholders(value), "\(language): \(key)")
        }
    }

    static let said429 = GeminiServerStatus(
        status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "You exceeded your current quota.")

    static let everyError: [GeminiError] = [
        .missingAPIKey, .invalidAPIKey(message: "m"), .invalidModelID("x y"),
        .transport(.timedOut, detail: "d"),
        .transport(.connectionLost, detail: "d"), .transport(.cannotConnect, detail: "d"),
        .transport(.badResponse, detail: "d"), .transport(.other, detail: "d"),
        .http(status: 500, apiStatus: "INTERNAL", message: "m", details: []), .rateLimited(retryAfter: nil),
        .rateLimited(retryAfter: .milliseconds(34_400)),
        .rateLimited(retryAfter: .seconds(26), server: said429),
        .quotaExhausted(quotaId: "q", message: "m"), .quotaExhausted(quotaId: nil, message: "m"),
        .modelRetired(modelID: "gemini-1.0-pro"),
        .invalidRequest(message: "m", fieldViolations: [FieldViolation(field: "f", description: "d")]),
        .promptBlocked(reason: .safety, message: nil), .contentBlocked(reason: .recitation, partialText: ""),
        .truncated(partialText: "", partialValue: nil), .emptyResponse, .streamEndedEarly(partialText: ""),
        .decodingFailed(reason: "r", excerpt: "e"), .mediaTooLarge(path: "p", bytes: 2, limit: 1),
        .mediaUnreadable(path: "p", reason: "r"),
        .toolCallFailed(reason: .malformedFunctionCall, finishMessage: "Malformed function call: x"),
    ]

    @Test(arguments: languages)
    func everyErrorHasATranslatedDescription(language: String) throws {
        let table = try Self.table(language)
        for error in Self.everyError {
            let text = error.description(language: language)
            #expect(!text.contains("error."), "\(language): \(text)")
            #expect(!text.contains("transport."), "\(language): \(text)")
            #expect(!text.isEmpty)
        }
        let expected = try #require(table["error.emptyResponse"])
        #expect(GeminiError.emptyResponse.description(language: language) == expected)
    }

    /// A rate limit keeps the server's status line after the summary, in every language
    /// (docs/library.md, "Errors").
    @Test(arguments: [
        ("en", "Rate limited by the server: retry in 26 s."),
        ("es", "El servidor limitó la frecuencia de solicitudes: reintente en 26 s."),
        ("zh-Hans", "服务器限制了请求频率：请在 26 秒后重试。"),
        ("zh-Hant", "伺服器限制了要求頻率：請在 26 秒後重試。"),
    ])
    func aRateLimitKeepsTheServersStatusLine(language: String, summary: String) {
        let error = GeminiError.rateLimited(retryAfter: .seconds(26), server: Self.said429)
        #expect(
            error.description(language: language)
                == summary + " HTTP 429 RESOURCE_EXHAUSTED: You exceeded your current quota.")
        let key = "secret-value-1234"
        let echoed = GeminiError.rateLimited(
            retryAfter: nil, server: GeminiServerStatus(status: 429, apiStatus: nil, message: "key \(key)"))
        #expect(
            echoed.redacting([key]).description(language: "en")
                == "Rate limited by the server. HTTP 429: key ••••1234")
    }

    @Test func exactTexts() {
        #expect(
            GeminiError.rateLimited(retryAfter: .milliseconds(34_400)).description(language: "en")
                == "Rate limited by the server: retry in 34.4 s.")
        #expect(
            GeminiError.modelRetired(modelID: "gemini-1.0-pro").description(language: "es")
                == "El modelo «gemini-1.0-pro» no está disponible: fue retirado o no existe.")
        #expect(GeminiError.emptyResponse.description(language: "zh-Hans") == "模型返回了空回答。")
        #expect(GeminiError.emptyResponse.description(language: "zh-Hant") == "模型傳回了空白回答。")
    }

    /// A reply that was cut or is not the API's JSON is no network failure: it says so, the
    /// kind staying `transport` (retried, PRODUCT.md §3).
    @Test(arguments: [
        ("en", "Incomplete or malformed response from the server: Undecodable reply: not json"),
        ("es", "Respuesta del servidor incompleta o mal formada: Undecodable reply: not json"),
        ("zh-Hans", "服务器的响应不完整或格式错误：Undecodable reply: not json"),
        ("zh-Hant", "伺服器的回應不完整或格式錯誤：Undecodable reply: not json"),
    ])
    func aBadResponseIsNotCalledANetworkFailure(language: String, expected: String) {
        let error = GeminiError.transport(.badResponse, detail: "Undecodable reply: not json")
        #expect(error.description(language: language) == expected)
        #expect(
            GeminiError.transport(.connectionLost, detail: "reset").description(language: "en")
                == "Network failure (connection lost): reset")
    }

    /// `HTTP 404 NOT_FOUND: ...` (PRODUCT.md §5); a body without a status (a proxy's HTML
    /// page) reads `HTTP 502: ...`, with no blank before the colon.
    @Test(arguments: [
        ("en", "NOT_FOUND", "HTTP 404 NOT_FOUND: models/x is not found"),
        ("en", nil, "HTTP 404: models/x is not found"),
        ("en", "", "HTTP 404: models/x is not found"),
        ("es", nil, "HTTP 404: models/x is not found"),
        ("zh-Hans", nil, "HTTP 404：models/x is not found"),
        ("zh-Hant", "NOT_FOUND", "HTTP 404 NOT_FOUND：models/x is not found"),
    ])
    func httpStatusTexts(language: String, apiStatus: String?, expected: String) {
        let error = GeminiError.http(
            status: 404, apiStatus: apiStatus, message: "models/x is not found", details: [])
        #expect(error.description(language: language) == expected)
    }

    @Test(arguments: [
        (["LANGUAGE": "es:en", "LANG": "zh_CN.UTF-8"], "es"),
        (["LANGUAGE": "fr:zh_TW", "LANG": "en_US.UTF-8"], "zh-Hant"),
        (["LC_ALL": "zh_CN.UTF-8", "LANG": "es_ES.UTF-8"], "zh-Hans"),
        (["LC_MESSAGES": "es_MX.UTF-8", "LANG": "en_US.UTF-8"], "es"),
        (["LANG": "zh_HK.UTF-8"], "zh-Hant"),
        (["LANG": "zh-Hant-TW"], "zh-Hant"),
        (["LANG": "C"], "en"),
        (["LANG": "fr_FR.UTF-8"], "en"),
        ([:], "en"),
    ])
    func languageFromTheEnvironment(environment: [String: String], expected: String) {
        #expect(GeminiLocalization.language(fromEnvironment: environment) == expected)
        #expect(GeminiLocalization(language: nil, environment: environment).language == expected)
    }

    @Test func anExplicitLanguageWins() {
        #expect(GeminiLocalization(language: "zh_TW", environment: ["LANG": "es_ES"]).language == "zh-Hant")
        #expect(GeminiLocalization(language: "xx", environment: ["LANG": "es_ES"]).language == "es")
    }

    @Test func descriptionsMaskKeyShapedText() {
        let key = "AIzaSyD-0123456789abcdefghijklmnopqrstu"
        let error = GeminiError.http(
            status: 400, apiStatus: "INVALID_ARGUMENT", message: "bad key \(key)!", details: [])
        #expect(error.description(language: "en") == "HTTP 400 INVALID_ARGUMENT: bad key ••••rstu!")
        let redacted = GeminiError.invalidAPIKey(message: "k=secret-value-1234 and secret-value-1234")
            .redacting(["secret-value-1234"])
        #expect(redacted == .invalidAPIKey(message: "k=••••1234 and ••••1234"))
    }

    @Test func retryableClassification() {
        let retryable = Self.everyError.filter(\.isRetryable)
        #expect(
            retryable == [
                .transport(.timedOut, detail: "d"), .transport(.connectionLost, detail: "d"),
                .transport(.cannotConnect, detail: "d"), .transport(.badResponse, detail: "d"),
                .transport(.other, detail: "d"),
                .http(status: 500, apiStatus: "INTERNAL", message: "m", details: []),
                .rateLimited(retryAfter: nil), .rateLimited(retryAfter: .milliseconds(34_400)),
                .rateLimited(retryAfter: .seconds(26), server: Self.said429),
                .streamEndedEarly(partialText: ""),
            ])
    }
}
