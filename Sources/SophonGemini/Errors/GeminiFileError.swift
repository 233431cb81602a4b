import Foundation

/// What can go wrong with a file of the Files API beyond the errors every call shares
/// (``GeminiError``): the file's own state, or a reply the upload protocol does not allow
/// (docs/library.md, "Files").
public enum GeminiFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server ended processing with `FAILED`; `message` is its `error.message` when given.
    case processingFailed(name: String, message: String?)
    /// The file was still `PROCESSING` when the wait's limit passed.
    case processingTimedOut(name: String, waited: Duration)
    /// A 403 `PERMISSION_DENIED` for a file: it is missing, deleted, expired or someone else's
    /// ("... or it may not exist"). Not a key problem.
    case notFound(name: String, message: String)
    /// The file's `expirationTime` has passed (``GeminiFile/checkUsable(now:)``, before it is used).
    case expired(name: String, expirationTime: String)
    /// The upload protocol broke: no session URL, a status the protocol does not allow, all
    /// bytes sent but the upload not finalized, or an offset outside the file.
    case uploadFailed(detail: String)
    /// Download asked for a file that has no download (uploaded files cannot be downloaded).
    case notDownloadable(name: String)

    /// An English, one-line description.
    public var description: String {
        switch self {
        case .processingFailed(let name, let message):
            "File \(name) failed processing" + (message.map { ": \($0)" } ?? ".")
        case .processingTimedOut(let name, let waited):
            "File \(name) was still PROCESSING after \(Self.seconds(waited)) s."
        case .notFound(let name, let message):
            "File \(name) does not exist, has expired or is not yours (403): \(message)"
        case .expired(let name, let time):
            "File \(name) expired at \(time)."
        case .uploadFailed(let detail):
            "Upload failed: \(detail)"
        case .notDownloadable(let name):
            "File \(name) cannot be downloaded: only generated files can."
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

extension GeminiFileError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
