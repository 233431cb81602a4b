import Foundation
import SophonCore

/// One content block of the Interactions API (docs/interactions.md): `text`, `image`,
/// `audio`, `document` or `video`, discriminated by `type`. Kept as the JSON object it is on
/// the wire (unknown fields included), with typed accessors.
public struct GeminiInteractionContent: Sendable, Hashable {
    /// The block as sent or received.
    public var json: JSONValue

    /// A block from its JSON object.
    public init(json: JSONValue) { self.json = json }

    /// `{"type": "text", "text": TEXT}`.
    public static func text(_ text: String) -> GeminiInteractionContent {
        GeminiInteractionContent(
            json: .object([JSONMember("type", .string("text")), JSONMember("text", .string(text))]))
    }

    /// Inline media: `{"type": KIND, "data": BASE64, "mime_type": TYPE}`, the kind from the
    /// MIME type (`image/*` image, `audio/*` audio, `video/*` video, anything else document).
    public static func media(data: Data, mimeType: String) -> GeminiInteractionContent {
        GeminiInteractionContent(
            json: .object([
                JSONMember("type", .string(kind(ofMIMEType: mimeType))),
                JSONMember("data", .string(data.base64EncodedString())),
                JSONMember("mime_type", .string(mimeType)),
            ]))
    }

    /// Media by URI (a Files API URI or a public https URL): `{"type", "uri", "mime_type"}`.
    public static func media(uri: String, mimeType: String) -> GeminiInteractionContent {
        GeminiInteractionContent(
            json: .object([
                JSONMember("type", .string(kind(ofMIMEType: mimeType))), JSONMember("uri", .string(uri)),
                JSONMember("mime_type", .string(mimeType)),
            ]))
    }

    /// The block kind a MIME type travels as.
    static func kind(ofMIMEType mimeType: String) -> String {
        for kind in ["image", "audio", "video"] where mimeType.hasPrefix(kind + "/") { return kind }
        return "document"
    }

    /// `type`.
    public var type: String { json["type"]?.stringValue ?? "" }

    /// The text of a `text` block, else `nil`.
    public var text: String? { type == "text" ? json["text"]?.stringValue : nil }

    /// The bytes of a media block (`image`, `audio`, `video`, `document`) sent inline
    /// (`data`, base64), with its `mime_type`; `nil` for text, a block by `uri`, or data that
    /// is not base64.
    public var inlineData: Blob? {
        guard type != "text", let base64 = json["data"]?.stringValue,
            let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters)
        else { return nil }
        return Blob(mimeType: json["mime_type"]?.stringValue ?? "application/octet-stream", data: data)
    }

    /// The `url_citation` annotations of a text block, in order.
    public var citations: [GeminiInteractionSource] {
        guard case .array(let notes)? = json["annotations"] else { return [] }
        return notes.compactMap { note in
            guard note["type"]?.stringValue == "url_citation", let url = note["url"]?.stringValue else {
                return nil
            }
            return GeminiInteractionSource(title: note["title"]?.stringValue ?? url, url: url)
        }
    }
}

/// A web source a reply cites (a `url_citation` annotation).
public struct GeminiInteractionSource: Sendable, Hashable {
    /// The title (the URL when the annotation has none).
    public var title: String
    /// The URL.
    public var url: String

    /// Creates a source.
    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}
