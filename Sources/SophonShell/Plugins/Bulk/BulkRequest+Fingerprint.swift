import Foundation
import SophonCore
import SophonGemini

extension BulkRequest {
    /// What identifies this request for a resume: the SHA-256 (hex) of the model's id and the
    /// body as sent (the schema applied), encoded with sorted keys. A changed prompt, schema,
    /// model or setting changes it; the key does not.
    var fingerprint: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data(((model?.id ?? "") + "\n").utf8)
        data.append((try? encoder.encode(request.answering(schema: schema))) ?? Data())
        return SHA256.hexDigest(data)
    }
}
