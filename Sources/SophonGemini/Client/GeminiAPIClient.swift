import Foundation
import SophonCore
import Synchronization

/// The Gemini REST client: structured and text generation, streaming, token counting and the
/// models list, with retries, model fallback and typed errors.
///
/// `Sendable` and stateless apart from its configuration: call it from many tasks at once.
/// The API key (from ``GeminiClientConfiguration/apiKeyProvider``) travels only in the
/// `x-goog-api-key` header, and is masked in every error description.
///
/// ```swift
/// struct Extraction: Decodable, Sendable { let title: String }
/// let client = GeminiAPIClient(configuration: .init(apiKeyProvider: { myKey }))
/// let result = try await client.generateStructured(
///     Extraction.self, label: "extract", prompt: "Title of: ...",
///     schema: .object(properties: ["title": .string()], required: ["title"]),
///     retryPolicy: .minimal)
/// print(result.value.title, result.usage?.totalTokenCount ?? 0, result.retryCount)
/// ```
public final class GeminiAPIClient: Sendable {
    /// The configuration every call uses (per-call parameters override parts of it).
    public let configuration: GeminiClientConfiguration
    /// The transport moving the bytes.
    public let transport: any GeminiTransport
    /// Ends streams that outlast the whole-call limit (one timer for all of them, on the
    /// configuration's ``GeminiClientConfiguration/deadlineClock``).
    let streamDeadlines: DeadlineWatch
    /// Files this client uploaded, by content hash (``uploadFileOnce(data:mimeType:displayName:retryPolicy:progress:)``).
    let uploadMemo: UploadMemo

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: models, endpoint, key source, policy and hooks.
    ///   - transport: the HTTP layer; the default wraps URLSession (created lazily).
    public init(
        configuration: GeminiClientConfiguration = .init(),
        transport: any GeminiTransport = URLSessionTransport()
    ) {
        self.configuration = configuration
        self.transport = transport
        self.streamDeadlines = DeadlineWatch(clock: configuration.deadlineClock)
        self.uploadMemo = UploadMemo()
    }

    /// Creates a client that shares `other`'s memory of uploaded files, so a client made again
    /// with a changed configuration does not upload the same bytes again.
    /// - Parameters:
    ///   - configuration: models, endpoint, key source, policy and hooks.
    ///   - transport: the HTTP layer.
    ///   - other: the client whose uploads this one remembers (and adds to).
    public init(
        configuration: GeminiClientConfiguration, transport: any GeminiTransport,
        sharingUploadsWith other: GeminiAPIClient
    ) {
        self.configuration = configuration
        self.transport = transport
        self.streamDeadlines = DeadlineWatch(clock: configuration.deadlineClock)
        self.uploadMemo = other.uploadMemo
    }

    /// Whether the key provider currently supplies a key.
    public var hasAPIKey: Bool { (try? requireAPIKey()) != nil }

    /// The key for display (`••••cD3f`), or `nil` when there is none.
    public var maskedAPIKey: String? { (try? requireAPIKey()).map(SecretMask.mask) }
}

extension GeminiClientConfiguration {
    /// A key provider reading `account` from `keychain` on each call: environment variables
    /// first (`GOOGLE_API_KEY`, then `GEMINI_API_KEY` for the `gemini` account), then the
    /// platform store. A store that cannot be read gives no key (the call then fails with
    /// ``GeminiError/missingAPIKey``).
    public static func keychainKeyProvider(
        account: String, keychain: SophonKeychain = SophonKeychain()
    ) -> @Sendable () -> String? {
        { (try? keychain.load(account: account))?.secret }
    }
}

extension GeminiAPIClient {
    /// The API key from the provider, trimmed.
    /// - Throws: ``GeminiError/missingAPIKey`` when there is none.
    func requireAPIKey() throws -> String {
        let key = Self.trimmed(configuration.apiKeyProvider() ?? "")
        guard !key.isEmpty else { throw GeminiError.missingAPIKey }
        return key
    }

    /// `text` without leading and trailing whitespace and newlines (Unicode White_Space, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`), without bridging to `NSString`:
    /// that took 2.7% of a call's CPU in the benchmark (perf, docs/benchmarks.md).
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// Saves `key` for ``GeminiClientConfiguration/keychainAccount`` in `keychain`'s store.
    /// - Returns: where the key now comes from: an environment variable still wins over the
    ///   saved key, and the source says so.
    /// - Throws: what the store throws (`SecretStoreError` for Sophon's stores).
    @discardableResult
    public func saveAPIKey(_ key: String, keychain: SophonKeychain = SophonKeychain()) throws -> SecretSource
    {
        try keychain.save(key, account: configuration.keychainAccount)
    }

    /// Deletes the saved key of ``GeminiClientConfiguration/keychainAccount``.
    /// - Returns: whether a key was deleted.
    /// - Throws: what the store throws.
    @discardableResult
    public func deleteAPIKey(keychain: SophonKeychain = SophonKeychain()) throws -> Bool {
        try keychain.delete(account: configuration.keychainAccount)
    }
}

extension GeminiAPIClient {
    /// `request` as the attempt `variant` sends it: unchanged before any transport failure or
    /// without a configured ``GeminiClientConfiguration/imageDownscaler``; otherwise with its
    /// image parts re-encoded at the variant's step (``GeminiMediaDownscale``).
    func downscaled(_ request: GenerateContentRequest, for variant: GeminiRequestVariant)
        -> GenerateContentRequest
    {
        guard variant.downscaleStep > 0, let downscaler = configuration.imageDownscaler else {
            return request
        }
        return GeminiMediaDownscale.apply(to: request, step: variant.downscaleStep, downscaler: downscaler)
    }
}

/// A value shared between the closures of one call, behind a lock.
final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func get() -> Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }
}
