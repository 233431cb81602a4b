import Foundation

/// The image formats SophonMedia decodes, told apart by their magic bytes.
enum ImageFormat {
    case jpeg
    case png
    case webp

    /// The format of `data`, or `nil` for anything else.
    static func of(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8)
        {
            return .webp
        }
        return nil
    }
}
