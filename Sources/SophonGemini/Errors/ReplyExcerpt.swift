import Foundation
import SophonCore

/// A short, readable part of a reply body for error messages.
enum ReplyExcerpt {
    /// The first 200 characters of `data` as text, whitespace collapsed; an HTML page (a
    /// proxy's error page) is reduced to its title, or its text without tags.
    static func excerpt(_ data: Data, limit: Int = 200) -> String {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        guard text.drop(while: \.isWhitespace).first == "<" else {
            return TextExcerpt.collapsed(String(text.prefix(limit * 4)), limit: limit)
        }
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(
                of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            return "an HTML page: "
                + TextExcerpt.collapsed(String(text[open.upperBound..<close.lowerBound]), limit: limit)
        }
        var plain = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; plain.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { plain.append(character) }
        }
        return "an HTML page: " + TextExcerpt.collapsed(plain, limit: limit)
    }
}
