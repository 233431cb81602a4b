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
