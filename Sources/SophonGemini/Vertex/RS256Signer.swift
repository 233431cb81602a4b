import Foundation

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// RSASSA-PKCS1-v1_5 with SHA-256 (JWT's `RS256`) by the system OpenSSL (`libssl-dev`).
enum RS256Signer {
    /// The signature of `data` by the PEM private key `pem`.
    /// - Throws: ``GoogleCredentialsError/badKey(path:reason:)`` (with `path`) when the key
    ///   cannot sign; ``GoogleCredentialsError/signingUnavailable`` without OpenSSL.
    static func sign(_ data: Data, pem: String, path: String) throws(GoogleCredentialsError) -> Data {
        #if canImport(COpenSSL)
            var signature = [UInt8](repeating: 0, count: 1024)
            let pemBytes = Array(pem.utf8)
            let bytes = [UInt8](data)
            let length = pemBytes.withUnsafeBufferPointer { pemBuffer in
                bytes.withUnsafeBufferPointer { dataBuffer in
                    signature.withUnsafeMutableBufferPointer { out in
                        pemBuffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pemBytes.count) {
                            sophon_rs256_sign(
                                $0, pemBytes.count, dataBuffer.baseAddress, bytes.count, out.baseAddress,
                                out.count)
                        }
                    }
                }
            }
            switch length {
            case -1: throw .badKey(path: path, reason: "no PEM private key could be read")
            case -2: throw .badKey(path: path, reason: "the key is not an RSA key")
            case ..<1: throw .badKey(path: path, reason: "OpenSSL could not sign with it")
            default: return Data(signature[0..<Int(length)])
            }
        #else
            throw .signingUnavailable
        #endif
    }

    /// Unpadded base64url (RFC 7515 §2).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }
}
