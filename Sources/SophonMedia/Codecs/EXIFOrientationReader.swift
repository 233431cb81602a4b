/// Reads the EXIF orientation of a JPEG: walks the marker segments up to the first scan, finds
/// the APP1 segment that starts with `Exif\0\0`, and reads tag 0x0112 (a SHORT) from IFD0 of its
/// TIFF structure, in either byte order (EXIF 2.3 §4.5, §4.6; docs/media.md). Any truncation,
/// bad offset or out-of-range value reads as ``ImageOrientation/up``; it never traps.
enum EXIFOrientationReader {
    /// The orientation of the JPEG `bytes`.
    static func orientation(ofJPEG bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return .up }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                index += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return .up }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return .up }
            let start = index + 4
            let end = index + 2 + length
            if marker == 0xE1, end - start >= 6,
                Array(bytes[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0]
            {
                return tiffOrientation(bytes, from: start + 6, to: end) ?? .up
            }
            index = end
        }
        return .up
    }

    /// The orientation tag of the TIFF structure in `bytes[from..<to]`, if well formed.
    private static func tiffOrientation(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int)
        -> ImageOrientation?
    {
        guard to - from >= 8 else { return nil }
        let little: Bool
        switch (bytes[from], bytes[from + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            let at = from + offset
            guard offset >= 0, at + 2 <= to else { return nil }
            let a = Int(bytes[at])
            let b = Int(bytes[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2)
            else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2) else { return nil }
            if tag == 0x0112 {
                guard type == 3, let value = u16(at + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
