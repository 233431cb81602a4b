import Foundation

extension GeminiAPIClient {
    /// Inline parts for encoded images (PNG, JPEG, WebP, GIF, HEIC; PDF and plain text are
    /// accepted too), in order, within the configuration's ``GeminiClientConfiguration/maxMediaParts``
    /// and ``GeminiClientConfiguration/maxInlineMediaBytes``: the original API's `encodeImages`, for a
    /// ``send(_:label:model:retryPolicy:allowPartial:buildRequest:)`` builder.
    ///
    /// The parts hold the original bytes on every attempt: after a transport failure the client
    /// re-encodes the image parts of the request itself when it has an
    /// ``GeminiClientConfiguration/imageDownscaler`` (docs/library.md, "Downscale on retry").
    /// - Parameters:
    ///   - images: the encoded image files.
    ///   - variant: the attempt being built.
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:)`` for more images than
    ///   allowed, ``GeminiError/mediaTooLarge(path:bytes:limit:)`` past the byte limit and
    ///   ``GeminiError/mediaUnreadable(path:reason:)`` for bytes of an unknown type (errors name
    ///   the images `item 1`, `item 2`, ...); `CancellationError` when the task is cancelled.
    public func encodeImages(_ images: [Data], variant: GeminiRequestVariant) async throws -> [Part] {
        try Task.checkCancellation()
        return try GeminiMedia.inlineParts(data: images, configuration: configuration)
    }

    /// The original API's request builder: the request of
    /// ``buildRequest(parts:promptText:responseSchema:systemInstruction:generationConfig:)``.
    ///
    /// `apiKey` and `modelID` are accepted so code written for the original API compiles unchanged; neither goes into
    /// the body: the client sends the key in the `x-goog-api-key` header and the model in the
    /// URL path of each attempt (``GeminiRequestVariant/modelID``).
    /// - Throws: ``GeminiError/invalidModelID(_:)`` when `modelID` is not a well-formed model
    ///   ID (``GeminiModel/isWellFormedID(_:)``, a leading `models/` allowed).
    public func buildRequest(
        parts: [Part], promptText: String, apiKey: String, modelID: String, responseSchema: GeminiSchema?
    ) throws -> GenerateContentRequest {
        _ = try Self.validatedModelID(modelID)
        return buildRequest(parts: parts, promptText: promptText, responseSchema: responseSchema)
    }
}
