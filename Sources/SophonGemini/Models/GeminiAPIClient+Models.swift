import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Lists one page of models (`GET /v1beta/models`).
    /// - Parameters:
    ///   - pageSize: models per page (server default 50, max 1000); `nil` leaves it to the server.
    ///   - pageToken: the previous page's `nextPageToken`.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Throws: ``GeminiError`` after retries, or `CancellationError`.
    public func listModels(
        pageSize: Int? = nil, pageToken: String? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> ListModelsResponse {
        let endpoint = GeminiEndpoint.models(pageSize: pageSize, pageToken: pageToken)
        let call = GeminiAPICall<ListModelsResponse>.unary(
            label: "listModels", method: "GET", namesModel: false, model: nil, endpoint: { _ in endpoint },
            body: { _ in nil })
        return try await perform(call, retryPolicy: retryPolicy).value
    }

    /// Lists every model, following `nextPageToken` (at most `maxPages` pages); a listing that
    /// stops early (a repeated page token, the page limit) is logged as a warning.
    /// - Throws: as ``listModels(pageSize:pageToken:retryPolicy:)``.
    public func listAllModels(pageSize: Int? = nil, maxPages: Int = 100) async throws -> [GeminiModelInfo] {
        let listing = try await listModelPages(pageSize: pageSize, maxPages: maxPages)
        if let warning = listing.warning { log(.warning, "listModels: \(warning)") }
        return listing.items
    }

    /// Lists every model through a ``GeminiPager``: the models, the pages read and why the
    /// listing stopped (a page token the server sent twice ends it, see ``GeminiPagedList/Stop``).
    /// - Throws: as ``listModels(pageSize:pageToken:retryPolicy:)``.
    public func listModelPages(pageSize: Int? = nil, maxPages: Int = 100) async throws
        -> GeminiPagedList<GeminiModelInfo>
    {
        try await GeminiPager(maxPages: maxPages).collect { token in
            let page = try await listModels(pageSize: pageSize, pageToken: token)
            return (page.models ?? [], page.nextPageToken)
        }
    }
}

extension GeminiAPIClient {
    /// The model calls use when none is given: the stored selection (else the default model)
    /// resolved against ``GeminiClientConfiguration/availableModels`` — a preset the app does
    /// not offer walks its successors, then falls back; a custom ID passes through.
    public var selectedModelID: String {
        GeminiModel.resolveSelection(
            configuration.modelStore.loadSelection(), defaultModel: configuration.defaultModel,
            available: configuration.availableModels, fallback: configuration.fallbackModel
        ).resolved.id
    }

    /// The model ID a call sends: `model`, else ``selectedModelID``, checked and without
    /// `models/`.
    /// - Throws: ``GeminiError/invalidModelID(_:)``.
    func callModelID(_ model: GeminiModel?) throws -> String {
        try Self.validatedModelID(model?.id ?? selectedModelID)
    }

    /// Resets the stored model selection to the fallback when `modelID` is the stored one.
    func resetStoredSelection(ifItIs modelID: String) {
        let store = configuration.modelStore
        guard let stored = store.loadSelection(), Self.stripModelsPrefix(stored) == modelID else { return }
        store.saveSelection(configuration.fallbackModel.id)
        log(
            .warning,
            "The stored model \(modelID) is not available; the selection is now \(configuration.fallbackModel.id)."
        )
    }

    /// `models/x` -> `x`.
    static func stripModelsPrefix(_ id: String) -> String {
        id.hasPrefix("models/") ? String(id.dropFirst("models/".count)) : id
    }

    /// Checks a model ID (a leading `models/` removed) with ``GeminiModel/isWellFormedID(_:)``.
    /// - Throws: ``GeminiError/invalidModelID(_:)``.
    static func validatedModelID(_ id: String) throws -> String {
        let stripped = stripModelsPrefix(id)
        guard GeminiModel.isWellFormedID(stripped) else { throw GeminiError.invalidModelID(id) }
        return stripped
    }
}

/// Follows `nextPageToken` through a paged listing (`GET models`, `files`, `batches`,
/// `cachedContents`: `{ITEMS: [...], "nextPageToken": "..."}`, docs/library.md), one page at a
/// time, and stops at the last page, at a page token it has already sent (a server that answers
/// the same token again would otherwise be asked for the same page forever), or after `maxPages`
/// pages.
public struct GeminiPager: Sendable {
    /// The most pages one listing reads (at least 1).
    public var maxPages: Int

    /// Creates a pager that reads at most `maxPages` pages (clamped to at least 1).
    public init(maxPages: Int = 100) {
        self.maxPages = max(maxPages, 1)
    }

    /// Reads pages through `fetch` until the listing ends.
    /// - Parameter fetch: asks for the page after the given token (`nil` for the first page) and
    ///   returns its items and its `nextPageToken` (`nil` or empty on the last page).
    /// - Returns: every item in page order, and why the listing stopped.
    /// - Throws: whatever `fetch` throws; the items read before are lost with it.
    public func collect<Item: Sendable>(
        _ fetch: (_ pageToken: String?) async throws -> (items: [Item], nextPageToken: String?)
    ) async throws -> GeminiPagedList<Item> {
        var items: [Item] = []
        var sentTokens: Set<String> = []
        var token: String?
        for page in 1...maxPages {
            let reply = try await fetch(token)
            items += reply.items
            guard let next = reply.nextPageToken, !next.isEmpty else {
                return GeminiPagedList(items: items, pages: page, stop: .lastPage)
            }
            if let token { sentTokens.insert(token) }
            if sentTokens.contains(next) {
                return GeminiPagedList(items: items, pages: page, stop: .repeatedPageToken(next))
            }
            token = next
        }
        return GeminiPagedList(items: items, pages: maxPages, stop: .pageLimit(maxPages))
    }
}

/// What a ``GeminiPager`` read: the items of every page, how many pages, and why it stopped.
public struct GeminiPagedList<Item: Sendable>: Sendable {
    /// Why a listing stopped.
    public enum Stop: Sendable, Hashable {
        /// The last page had no `nextPageToken`: the listing is complete.
        case lastPage
        /// The server answered a page token that had already been sent (given here): the
        /// listing stopped there, possibly incomplete.
        case repeatedPageToken(String)
        /// The page limit (given here) was reached with more pages announced.
        case pageLimit(Int)
    }

    /// Every item, in page order (a repeated page's items are kept once: the page that
    /// announced the repeated token is the last one read).
    public var items: [Item]
    /// How many pages were read.
    public var pages: Int
    /// Why the listing stopped.
    public var stop: Stop

    /// A one-line warning for a listing that did not end at its last page (`nil` when it did):
    /// `the server sent page token 'T' again after N pages; the listing stops there`.
    public var warning: String? {
        switch stop {
        case .lastPage: nil
        case .repeatedPageToken(let token):
            "the server sent page token '\(token)' again after \(pages) page\(pages == 1 ? "" : "s"); "
                + "the listing stops there"
        case .pageLimit(let limit):
            "the listing stopped after \(limit) page\(limit == 1 ? "" : "s"); more were announced"
        }
    }
}
