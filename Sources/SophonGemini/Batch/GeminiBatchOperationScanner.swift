import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an Operation resource (docs/running-many-prompts.md) from a file in one pass without
/// building it whole in memory: the answers in `metadata.output.inlinedResponses.inlinedResponses`
/// (or, when that holds none, `response.inlinedResponses.inlinedResponses`) are handed out one
/// item at a time as their JSON bytes; everything else is copied into ``stripped``, the same
/// Operation with those arrays emptied, small enough to decode as usual.
///
/// The scanner checks only what it needs (brackets, strings and their escapes); a body that is
/// not JSON ends in ``Malformed``.
struct GeminiBatchOperationScanner {
    /// The body broke off or is not JSON; `offset` is the byte where reading stopped.
    struct Malformed: Error {
        var offset: Int
    }

    /// The Operation without its answers.
    private(set) var stripped: [UInt8] = []

    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var position = 0
    private var end = 0
    private var consumed = 0
    /// The first array that handed out an item; the other copy of the answers is skipped.
    private var source: String?

    private static let targets: [[String]] = [
        ["metadata", "output", "inlinedResponses", "inlinedResponses"],
        ["response", "inlinedResponses", "inlinedResponses"],
    ]

    /// Scans the file open at `descriptor` (read from its current offset to its end).
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads the whole Operation, calling `item` with the bytes of each answer in the order
    /// they appear.
    /// - Throws: ``Malformed``, or what `item` throws.
    mutating func scan(_ item: ([UInt8]) throws -> Void) throws {
        var out: [UInt8] = []
        skipSpace()
        try value(path: [], out: &out, item: item)
        stripped = out
    }

    private mutating func fill() -> Bool {
        guard position >= end else { return true }
        consumed += end
        position = 0
        end = 0
        let count =
            (try? buffer.withUnsafeMutableBytes { try FileDescriptorReader.read(descriptor, into: $0) }) ?? 0
        guard count > 0 else { return false }
        end = count
        return true
    }

    private mutating func peek() -> UInt8? {
        guard fill() else { return nil }
        return buffer[position]
    }

    private mutating func next() throws -> UInt8 {
        guard fill() else { throw Malformed(offset: consumed + position) }
        defer { position += 1 }
        return buffer[position]
    }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func expect(_ byte: UInt8, into out: inout [UInt8]) throws {
        let found = try next()
        guard found == byte else { throw Malformed(offset: consumed + position - 1) }
        out.append(found)
    }

    /// One value at `path`: descends into objects on the way to a target array, copies the rest.
    private mutating func value(path: [String], out: inout [UInt8], item: ([UInt8]) throws -> Void) throws {
        guard path.isEmpty || Self.targets.contains(where: { $0.starts(with: path) }),
            peek() == UInt8(ascii: "{")
        else {
            if Self.targets.contains(path), peek() == UInt8(ascii: "[") {
                return try items(path: path, out: &out, item: item)
            }
            return try copyValue(into: &out)
        }
        try expect(UInt8(ascii: "{"), into: &out)
        skipSpace()
        if peek() == UInt8(ascii: "}") { return try expect(UInt8(ascii: "}"), into: &out) }
        while true {
            skipSpace()
            let start = out.count
            try copyString(into: &out)
            let key = String(decoding: out[(start + 1)..<(out.count - 1)], as: UTF8.self)
            skipSpace()
            try expect(UInt8(ascii: ":"), into: &out)
            skipSpace()
            try value(path: path + [key], out: &out, item: item)
            skipSpace()
            let separator = try next()
            out.append(separator)
            if separator == UInt8(ascii: "}") { return }
            guard separator == UInt8(ascii: ",") else { throw Malformed(offset: consumed + position - 1) }
        }
    }

    /// A target array: each element goes to `item` (unless another array already did); `[]`
    /// goes to `out`.
    private mutating func items(path: [String], out: inout [UInt8], item: ([UInt8]) throws -> Void) throws {
        var ignored: [UInt8] = []
        try expect(UInt8(ascii: "["), into: &ignored)
        out.append(contentsOf: "[]".utf8)
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        let owner = path[0]
        while true {
            skipSpace()
            var element: [UInt8] = []
            try copyValue(into: &element)
            if source == nil { source = owner }
            if source == owner { try item(element) }
            skipSpace()
            let separator = try next()
            if separator == UInt8(ascii: "]") { return }
            guard separator == UInt8(ascii: ",") else { throw Malformed(offset: consumed + position - 1) }
        }
    }

    private mutating func copyString(into out: inout [UInt8]) throws {
        try expect(UInt8(ascii: "\""), into: &out)
        while true {
            let byte = try next()
            out.append(byte)
            if byte == UInt8(ascii: "\\") {
                out.append(try next())
            } else if byte == UInt8(ascii: "\"") {
                return
            }
        }
    }

    /// Copies one whole value (any nesting) byte for byte.
    private mutating func copyValue(into out: inout [UInt8]) throws {
        var depth = 0
        repeat {
            guard let byte = peek() else { throw Malformed(offset: consumed + position) }
            switch byte {
            case UInt8(ascii: "\""):
                try copyString(into: &out)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                out.append(try next())
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { throw Malformed(offset: consumed + position) }
                depth -= 1
                out.append(try next())
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard depth > 0 else { throw Malformed(offset: consumed + position) }
                out.append(try next())
            case 0x20, 0x0A, 0x0D, 0x09:
                position += 1
            default:
                // A number or a literal: up to the next delimiter.
                while let next = peek(),
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
                        .contains(
                            next)
                {
                    out.append(next)
                    position += 1
                }
            }
        } while depth > 0
    }
}
