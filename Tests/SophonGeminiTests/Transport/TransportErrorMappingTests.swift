import Foundation
import Testing

@testable import SophonGemini

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession's errors as the client's transport failures.
@Suite struct TransportErrorMappingTests {
    private func mapped(_ code: Int, _ text: String) -> GeminiError? {
        URLSessionTransport.map(
            NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: text]))
            as? GeminiError
    }

    /// A body cut short (libcurl's CURLE_PARTIAL_FILE, passed on as an unknown error) is an
    /// incomplete response, not some other network error.
    @Test func aBodyCutShortIsABadResponse() {
        #expect(
            mapped(-1, "transfer closed with 271 bytes remaining to read")
                == .transport(.badResponse, detail: "transfer closed with 271 bytes remaining to read (-1)"))
        #expect(
            mapped(-1, "transfer closed with outstanding read data remaining")
                == .transport(
                    .badResponse, detail: "transfer closed with outstanding read data remaining (-1)"))
        #expect(mapped(-1, "something else") == .transport(.other, detail: "something else (-1)"))
        #expect(
            mapped(NSURLErrorNetworkConnectionLost, "reset")
                == .transport(.connectionLost, detail: "reset (-1005)"))
    }
}
