import Testing

@testable import SophonGemini

/// The pager every paged listing goes through: it ends at the last page, on a page token it
/// has already sent, or at its page limit, and says which.
@Suite struct GeminiPagerTests {
    /// A scripted listing: page N (0-based) answers `pages[N]`, the last one for every later page.
    final class Script: @unchecked Sendable {
        let pages: [([Int], String?)]
        var asked: [String?] = []
        init(_ pages: [([Int], String?)]) { self.pages = pages }

        func fetch(_ token: String?) -> (items: [Int], nextPageToken: String?) {
            asked.append(token)
            let page = pages[min(asked.count - 1, pages.count - 1)]
            return (page.0, page.1)
        }
    }

    @Test func followsTokensToTheLastPage() async throws {
        let script = Script([([1, 2], "p2"), ([3], "p3"), ([4], "")])
        let listing = try await GeminiPager().collect { script.fetch($0) }
        #expect(listing.items == [1, 2, 3, 4])
        #expect(listing.pages == 3)
        #expect(listing.stop == .lastPage)
        #expect(listing.warning == nil)
        #expect(script.asked == [nil, "p2", "p3"])
    }

    @Test func stopsWhenTheSameTokenComesBack() async throws {
        let script = Script([([1], "t1"), ([2], "t1")])
        let listing = try await GeminiPager().collect { script.fetch($0) }
        #expect(listing.items == [1, 2])
        #expect(listing.stop == .repeatedPageToken("t1"))
        #expect(
            listing.warning == "the server sent page token 't1' again after 2 pages; the listing stops there")
        #expect(script.asked == [nil, "t1"])
    }

    @Test func stopsWhenAnEarlierTokenComesBack() async throws {
        let script = Script([([1], "a"), ([2], "b"), ([3], "a")])
        let listing = try await GeminiPager().collect { script.fetch($0) }
        #expect(listing.items == [1, 2, 3])
        #expect(listing.stop == .repeatedPageToken("a"))
        #expect(script.asked == [nil, "a", "b"])
    }

    @Test func stopsAtThePageLimit() async throws {
        var counter = 0
        let listing = try await GeminiPager(maxPages: 3).collect { _ in
            counter += 1
            return (items: [counter], nextPageToken: "t\(counter)")
        }
        #expect(listing.items == [1, 2, 3])
        #expect(listing.stop == .pageLimit(3))
        #expect(listing.warning == "the listing stopped after 3 pages; more were announced")
    }
}
