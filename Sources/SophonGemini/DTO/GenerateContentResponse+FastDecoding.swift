import Foundation
import SophonCore

/// A fast path for decoding the usual `generateContent` reply: parse with SophonCore's byte
/// parser, then read the fields directly, instead of `JSONDecoder` and the synthesized
/// `Decodable` code, which took about an eighth of a structured call's CPU in the benchmark
/// (callgrind: ~180,000 instructions for a 600-byte reply; docs/benchmarks.md).
///
/// It gives up (returns `nil`) on anything it does not read exactly as `JSONDecoder` would, and
/// the caller then decodes with `JSONDecoder`: a field of an unexpected type, a number that is
/// not a plain integer where an `Int` goes, a non-finite `Double`, duplicate keys, parts other
/// than text and thoughts (media, function calls, code), and the free-form fields kept as
/// ``JSONValue`` (`modelStatus`, `groundingMetadata`, `logprobsResult`, `urlContextMetadata`,
/// `videoMetadata`). Unknown keys are ignored, as the synthesized code ignores them.
enum FastResponseDecoding {
    /// The reply in `data`, or `nil` when the fast path does not apply.
    static func decode(_ data: Data) -> GenerateContentResponse? {
        guard let text = String(validating: data, as: UTF8.self),
            let json = try? JSONValue(parsing: text), case .object(let members) = json
        else { return nil }
        return response(members)
    }

    private static func response(_ members: [JSONMember]) -> GenerateContentResponse? {
        guard let fields = Fields(members), !fields.has("modelStatus") else { return nil }
        var response = GenerateContentResponse()
        guard fields.read("candidates", into: &response.candidates, array(candidate)),
            fields.read("promptFeedback", into: &response.promptFeedback, object(promptFeedback)),
            fields.read("usageMetadata", into: &response.usageMetadata, object(usage)),
            fields.read("modelVersion", into: &response.modelVersion, string),
            fields.read("responseId", into: &response.responseId, string)
        else { return nil }
        return response
    }

    private static func candidate(_ value: JSONValue) -> Candidate? {
        guard case .object(let members) = value, let fields = Fields(members),
            !fields.has("groundingMetadata"), !fields.has("logprobsResult"), !fields.has("urlContextMetadata")
        else { return nil }
        var candidate = Candidate()
        guard fields.read("content", into: &candidate.content, object(content)),
            fields.read("finishReason", into: &candidate.finishReason, string, FinishReason.init(rawValue:)),
            fields.read("finishMessage", into: &candidate.finishMessage, string),
            fields.read("safetyRatings", into: &candidate.safetyRatings, array(safetyRating)),
            fields.read("citationMetadata", into: &candidate.citationMetadata, object(citationMetadata)),
            fields.read("tokenCount", into: &candidate.tokenCount, integer),
            fields.read("avgLogprobs", into: &candidate.avgLogprobs, double),
            fields.read("index", into: &candidate.index, integer)
        else { return nil }
        return candidate
    }

    private static func content(_ fields: Fields) -> Content? {
        var content = Content(role: nil, parts: [])
        content.parts = nil
        guard fields.read("role", into: &content.role, string),
            fields.read("parts", into: &content.parts, array(part))
        else { return nil }
        return content
    }

    /// The part keys this path reads; any other part key (media, code, and kinds the client
    /// does not know, which ``Part`` keeps whole) sends the reply to `JSONDecoder`. A function
    /// call is read here so that its `args` keep the model's key order and number literals
    /// (`JSONDecoder` gives keys in no fixed order, so ``JSONValue`` sorts them): the calls
    /// print, and go back in the history, as the model sent them.
    private static let fastPartKeys: Set<String> = ["text", "thought", "thoughtSignature", "functionCall"]

    private static func part(_ value: JSONValue) -> Part? {
        guard case .object(let members) = value, let fields = Fields(members),
            members.allSatisfy({ fastPartKeys.contains($0.key) })
        else { return nil }
        var part = Part()
        guard fields.read("text", into: &part.text, string),
            fields.read("thought", into: &part.thought, bool),
            fields.read("thoughtSignature", into: &part.thoughtSignature, string),
            fields.read("functionCall", into: &part.functionCall, object(functionCall))
        else { return nil }
        return part
    }

    private static func functionCall(_ fields: Fields) -> FunctionCall? {
        var id: String?
        var name: String?
        var args: JSONValue?
        guard fields.read("id", into: &id, string), fields.read("name", into: &name, string),
            fields.read("args", into: &args, freeForm), let name
        else { return nil }
        return FunctionCall(id: id, name: name, args: args)
    }

    /// A free-form value as parsed, unless an object in it repeats a key.
    private static func freeForm(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .object(let members):
            guard Fields(members) != nil, members.allSatisfy({ freeForm($0.value) != nil }) else {
                return nil
            }
        case .array(let elements):
            guard elements.allSatisfy({ freeForm($0) != nil }) else { return nil }
        default: break
        }
        return value
    }

    private static func promptFeedback(_ fields: Fields) -> PromptFeedback? {
        var feedback = PromptFeedback()
        guard fields.read("blockReason", into: &feedback.blockReason, string, BlockReason.init(rawValue:)),
            fields.read("blockReasonMessage", into: &feedback.blockReasonMessage, string),
            fields.read("safetyRatings", into: &feedback.safetyRatings, array(safetyRating))
        else { return nil }
        return feedback
    }

    private static func safetyRating(_ value: JSONValue) -> SafetyRating? {
        guard case .object(let members) = value, let fields = Fields(members) else { return nil }
        var category: String?
        var probability: HarmProbability?
        var blocked: Bool?
        guard fields.read("category", into: &category, string),
            fields.read("probability", into: &probability, string, HarmProbability.init(rawValue:)),
            fields.read("blocked", into: &blocked, bool)
        else { return nil }
        return SafetyRating(category: category, probability: probability, blocked: blocked)
    }

    private static func citationMetadata(_ fields: Fields) -> CitationMetadata? {
        var sources: [CitationSource]?
        guard fields.read("citationSources", into: &sources, array(citationSource)) else { return nil }
        return CitationMetadata(citationSources: sources)
    }

    private static func citationSource(_ value: JSONValue) -> CitationSource? {
        guard case .object(let members) = value, let fields = Fields(members) else { return nil }
        var source = CitationSource()
        guard fields.read("startIndex", into: &source.startIndex, integer),
            fields.read("endIndex", into: &source.endIndex, integer),
            fields.read("uri", into: &source.uri, string),
            fields.read("license", into: &source.license, string)
        else { return nil }
        return source
    }

    private static func usage(_ fields: Fields) -> UsageMetadata? {
        var usage = UsageMetadata()
        let details = array(modalityCount)
        guard fields.read("promptTokenCount", into: &usage.promptTokenCount, integer),
            fields.read("cachedContentTokenCount", into: &usage.cachedContentTokenCount, integer),
            fields.read("candidatesTokenCount", into: &usage.candidatesTokenCount, integer),
            fields.read("toolUsePromptTokenCount", into: &usage.toolUsePromptTokenCount, integer),
            fields.read("thoughtsTokenCount", into: &usage.thoughtsTokenCount, integer),
            fields.read("totalTokenCount", into: &usage.totalTokenCount, integer),
            fields.read("promptTokensDetails", into: &usage.promptTokensDetails, details),
            fields.read("cacheTokensDetails", into: &usage.cacheTokensDetails, details),
            fields.read("candidatesTokensDetails", into: &usage.candidatesTokensDetails, details),
            fields.read("toolUsePromptTokensDetails", into: &usage.toolUsePromptTokensDetails, details),
            fields.read("serviceTier", into: &usage.serviceTier, string),
            fields.read("trafficType", into: &usage.trafficType, string)
        else { return nil }
        return usage
    }

    private static func modalityCount(_ value: JSONValue) -> ModalityTokenCount? {
        guard case .object(let members) = value, let fields = Fields(members) else { return nil }
        var count = ModalityTokenCount()
        guard fields.read("modality", into: &count.modality, string),
            fields.read("tokenCount", into: &count.tokenCount, integer)
        else { return nil }
        return count
    }

    // MARK: Leaves, each `nil` for a value `JSONDecoder` would not read the same way.

    private static func string(_ value: JSONValue) -> String? { value.stringValue }

    private static func bool(_ value: JSONValue) -> Bool? {
        guard case .bool(let flag) = value else { return nil }
        return flag
    }

    /// A plain integer literal within `Int`'s range (`7`, `-3`); `7.0` and `1e2` go to
    /// `JSONDecoder`, whose rules for them this path does not repeat.
    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value,
            number.text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) })
        else { return nil }
        return Int(number.text)
    }

    private static func double(_ value: JSONValue) -> Double? {
        guard case .number(let number) = value, let double = Double(number.text), double.isFinite else {
            return nil
        }
        return double
    }

    private static func array<T>(_ readElement: @escaping (JSONValue) -> T?) -> (JSONValue) -> [T]? {
        { value in
            guard case .array(let elements) = value else { return nil }
            var result: [T] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                guard let read = readElement(element) else { return nil }
                result.append(read)
            }
            return result
        }
    }

    private static func object<T>(_ read: @escaping (Fields) -> T?) -> (JSONValue) -> T? {
        { value in
            guard case .object(let members) = value, let fields = Fields(members) else { return nil }
            return read(fields)
        }
    }
}

/// The members of one JSON object, looked up by key; `nil` when a key repeats (which
/// `JSONDecoder` may resolve differently).
private struct Fields {
    let members: [JSONMember]

    init?(_ members: [JSONMember]) {
        for index in members.indices.dropFirst()
        where members[..<index].contains(where: { $0.key == members[index].key }) {
            return nil
        }
        self.members = members
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    /// Reads the member `key` into `target` with `read`, as `decodeIfPresent` would: a missing
    /// member or `null` leaves `nil`.
    /// - Returns: `false` when the member is there but `read` cannot read it.
    func read<T>(_ key: String, into target: inout T?, _ read: (JSONValue) -> T?) -> Bool {
        guard let member = members.first(where: { $0.key == key }) else { return true }
        if case .null = member.value { return true }
        guard let value = read(member.value) else { return false }
        target = value
        return true
    }

    /// Reads a string member and maps it (an open enum's raw value).
    func read<T>(
        _ key: String, into target: inout T?, _ read: (JSONValue) -> String?, _ map: (String) -> T
    ) -> Bool {
        var text: String?
        guard self.read(key, into: &text, read) else { return false }
        target = text.map(map)
        return true
    }
}
