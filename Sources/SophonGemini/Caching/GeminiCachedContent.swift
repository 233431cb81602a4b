import Foundation
import SophonCore

/// A context cache (`cachedContents/ID`) as the API reports it (docs/commands.md, "cache"):
/// the input it holds (`contents`, `systemInstruction`, `tools`) is never returned, only its
/// names, times and size.
public struct GeminiCachedContent: Codable, Sendable, Hashable {
    /// `cachedContents/ID` (on Vertex AI `projects/P/locations/L/cachedContents/ID`).
    public var name: String?
    /// The model it was made for: `models/ID` (on Vertex AI the full publisher path).
    public var model: String?
    /// The name given at creation (at most 128 characters).
    public var displayName: String?
    /// RFC 3339 times.
    public var createTime: String?
    /// RFC 3339 time of the last change (an extended expiry).
    public var updateTime: String?
    /// RFC 3339 time it expires; always present in a reply.
    public var expireTime: String?
    /// `{"totalTokenCount": N}`: the tokens it holds.
    public var usageMetadata: CachedUsage?

    /// The tokens a cache holds.
    public struct CachedUsage: Codable, Sendable, Hashable {
        /// Tokens in the cache.
        public var totalTokenCount: Int?

        /// Creates a count.
        public init(totalTokenCount: Int? = nil) { self.totalTokenCount = totalTokenCount }
    }

    /// Creates a value; every field optional.
    public init(
        name: String? = nil, model: String? = nil, displayName: String? = nil, expireTime: String? = nil,
        totalTokenCount: Int? = nil
    ) {
        self.name = name
        self.model = model
        self.displayName = displayName
        self.expireTime = expireTime
        self.usageMetadata = totalTokenCount.map { CachedUsage(totalTokenCount: $0) }
    }

    /// The tokens it holds (0 when the reply said nothing).
    public var tokenCount: Int { usageMetadata?.totalTokenCount ?? 0 }

    /// The model ID without its `models/` or publisher path (`gemini-2.5-flash`).
    public var modelID: String? {
        model.map { String($0.split(separator: "/").last ?? Substring($0)) }
    }
}

/// What a cache is made of (the body of `POST cachedContents`): the contents, and optionally
/// the system instruction, tools and tool configuration, which a call using the cache then
/// must leave out (the API refuses them: 400).
public struct GeminiCacheRequest: Sendable, Hashable {
    /// The cached turns (role `user` by default).
    public var contents: [Content]
    /// The system instruction the cache holds.
    public var systemInstruction: Content?
    /// Tool declarations, as the request's JSON array.
    public var tools: JSONValue?
    /// Tool configuration.
    public var toolConfig: JSONValue?
    /// A name shown by listings (at most 128 characters).
    public var displayName: String?
    /// How long it lives (server default: 1 hour).
    public var ttl: Duration?

    /// Creates a request.
    public init(
        contents: [Content], systemInstruction: Content? = nil, tools: JSONValue? = nil,
        toolConfig: JSONValue? = nil, displayName: String? = nil, ttl: Duration? = nil
    ) {
        self.contents = contents
        self.systemInstruction = systemInstruction
        self.tools = tools
        self.toolConfig = toolConfig
        self.displayName = displayName
        self.ttl = ttl
    }

    /// A Duration as the API's proto-JSON string: whole seconds, `3600s` (a fraction rounded up).
    public static func durationText(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds + (attoseconds > 0 ? 1 : 0))s"
    }

    /// The create body for `model` (`models/ID`, or Vertex AI's full publisher path), members
    /// in the API's order.
    func body(model: String) throws -> Data {
        var members = [JSONMember("model", .string(model))]
        if let displayName { members.append(JSONMember("displayName", .string(displayName))) }
        let encoder = OrderedJSONEncoder()
        let turns = try contents.map {
            try JSONValue(parsing: String(decoding: encoder.encodeData($0), as: UTF8.self))
        }
        members.append(JSONMember("contents", .array(turns)))
        if let systemInstruction {
            let text = String(decoding: try encoder.encodeData(systemInstruction), as: UTF8.self)
            members.append(JSONMember("systemInstruction", try JSONValue(parsing: text)))
        }
        if let tools { members.append(JSONMember("tools", tools)) }
        if let toolConfig { members.append(JSONMember("toolConfig", toolConfig)) }
        if let ttl { members.append(JSONMember("ttl", .string(Self.durationText(ttl)))) }
        return Data(JSONValue.object(members).compactText.utf8)
    }
}

/// One page of `GET cachedContents`.
public struct ListCachedContentsResponse: Codable, Sendable, Hashable {
    /// The caches of this page.
    public var cachedContents: [GeminiCachedContent]?
    /// The next page's token; absent or empty on the last page.
    public var nextPageToken: String?
}
