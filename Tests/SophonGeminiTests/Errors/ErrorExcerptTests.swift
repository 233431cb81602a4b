import Foundation
import Testing

@testable import SophonGemini

/// What a non-JSON error body becomes in a message.
@Suite struct ErrorExcerptTests {
    @Test(arguments: [
        (
            "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center>"
                + "<hr><center>nginx</center></body></html>",
            "an HTML page: 502 Bad Gateway"
        ),
        (
            "<html><body><h1>Service  down</h1>\n<p>try later</p></body></html>",
            "an HTML page: Service down try later"
        ),
        ("upstream connect error", "upstream connect error"),
    ])
    func nonJSONBodies(body: String, expected: String) {
        #expect(ReplyExcerpt.excerpt(Data(body.utf8)) == expected)
    }
}
