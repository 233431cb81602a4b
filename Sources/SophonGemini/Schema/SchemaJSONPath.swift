/// Builds JSON path strings for messages: `$`, `$.name`, `$["odd key"]`, `$.tags[1]`.
enum SchemaJSONPath {
    /// The path of the document root.
    static let root = "$"

    /// `path` followed by member `key`: `.key` for identifier-like keys, else `["key"]`.
    static func member(_ path: String, _ key: String) -> String {
        if isIdentifier(key) { return path + "." + key }
        return path + "[" + JSONValueText.quoted(key) + "]"
    }

    /// `path` followed by array index `index`.
    static func index(_ path: String, _ index: Int) -> String { path + "[\(index)]" }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.isASCIILetter else {
            return false
        }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIILetter || $0.isASCIIDigit }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool {
        (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
    }
    fileprivate var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
}
