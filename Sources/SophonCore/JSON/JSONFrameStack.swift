/// The containers a ``JSONByteParser`` has open, in about one byte per level: the innermost
/// one (``top``) is kept whole; each one below it as the distance from its parent's opening
/// bracket to its own, with its parent's kind, in a variable-length code (LEB128, read back
/// from the end). So nesting 100,000 brackets deep costs about 100 KB, not a record per level.
struct JSONFrameStack {
    /// Open containers.
    private(set) var count = 0
    /// Whether the innermost open container is an object (meaningless when ``count`` is 0).
    private(set) var topIsObject = false
    /// Offset of the innermost open container's opening bracket.
    private(set) var topStart = 0
    /// Whether the innermost open container holds no member or element yet.
    var topIsEmpty = true
    /// How many of the open containers are objects.
    private(set) var openObjects = 0
    /// For each container below the top, from the bottom: `(offset from its parent's opener
    /// to its own) << 1 | (its parent is an object)`, as LEB128.
    private var links: [UInt8] = []

    var isEmpty: Bool { count == 0 }

    /// The closer of the innermost open container.
    var topCloser: UInt8 { topIsObject ? ASCII.closeBrace : ASCII.closeBracket }

    /// Opens a container whose bracket is at `start` (after the current top's).
    mutating func push(isObject: Bool, start: Int) {
        if count > 0 {
            var link = UInt((start - topStart) << 1) | (topIsObject ? 1 : 0)
            while link >= 0x80 {
                links.append(UInt8(truncatingIfNeeded: link) | 0x80)
                link >>= 7
            }
            links.append(UInt8(link))
        }
        count += 1
        if isObject { openObjects += 1 }
        topIsObject = isObject
        topStart = start
        topIsEmpty = true
    }

    /// Closes the innermost container; its parent (which now holds it) becomes the top.
    mutating func pop() {
        guard count > 0 else { return }
        count -= 1
        if topIsObject { openObjects -= 1 }
        topIsEmpty = false
        guard count > 0, var link = links.popLast().map(UInt.init) else { return }
        while let byte = links.last, byte & 0x80 != 0 {
            links.removeLast()
            link = link << 7 | UInt(byte & 0x7F)
        }
        topIsObject = link & 1 == 1
        topStart -= Int(link >> 1)
    }

    /// Whether a container closed by `closer` is open below the top.
    func isOpenBelowTop(closer: UInt8) -> Bool {
        let objectsBelow = openObjects - (topIsObject ? 1 : 0)
        return closer == ASCII.closeBrace ? objectsBelow > 0 : count - 1 - objectsBelow > 0
    }
}
