import Foundation

extension GeminiMedia {
    /// The MIME type of `data` from its first bytes, covering what ``sniffMIMEType(_:)`` knows
    /// plus audio (MP3, WAV, AIFF, FLAC, OGG/Opus, AAC, M4A) and video (MP4, MOV, 3GP, WebM,
    /// AVI, MPEG); `nil` for anything else (``describeUnknownType(_:)`` names it for messages).
    public static func sniffMediaType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(64))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return "audio/wav" }
        if ascii("RIFF"), ascii("AVI ", at: 8) { return "video/x-msvideo" }
        if ascii("FORM"), ascii("AIFF", at: 8) || ascii("AIFC", at: 8) { return "audio/aiff" }
        if ascii("fLaC") { return "audio/flac" }
        if ascii("OggS") { return "audio/ogg" }
        if ascii("ID3") { return "audio/mpeg" }
        if bytes.count >= 2, bytes[0] == 0xFF {
            if bytes[1] & 0xF6 == 0xF0 { return "audio/aac" }  // ADTS: sync, layer 00
            if bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return "audio/mpeg" }  // MPEG audio frame
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "video/webm" }
        if starts([0x00, 0x00, 0x01, 0xBA]) || starts([0x00, 0x00, 0x01, 0xB3]) { return "video/mpeg" }
        if ascii("ftyp", at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            switch brand {
            case "M4A ", "M4B ", "M4P ": return "audio/mp4"
            case "qt  ": return "video/quicktime"
            case let name where name.hasPrefix("3g"): return "video/3gpp"
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": break
            default: return "video/mp4"
            }
        }
        return sniffMIMEType(data)
    }

    /// A name for bytes ``sniffMediaType(_:)`` does not accept, for error messages: `zip`,
    /// `gzip`, `ELF executable`, `binary data`.
    public static func describeUnknownType(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        if bytes.starts(with: [0x1F, 0x8B]) { return "application/gzip" }
        if bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "application/x-executable" }
        if data.isEmpty { return "empty file" }
        return "application/octet-stream"
    }
}
