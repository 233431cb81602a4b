// sophon-plugin-stats: an external Sophon plugin written in Swift, built by this package
// (`swift build` puts it at .build/debug/sophon-plugin-stats).
//
// Commands:
//   stats [FIELD]   count, sum, min, max and mean of the numbers in $last (or of FIELD in
//                   each object of $last); the result becomes $last and $stats_count is set
//
// It speaks protocol version 1 of docs/plugin-protocol.md: one JSON object per line on stdin
// and stdout. It uses SophonCore's JSONValue to read and write JSON.

import Foundation
import SophonCore

let protocolVersion = 1

/// A failure reported to the shell as an error reply.
struct CommandError: Error {
    var message: String
}

/// Writes one message as one line on stdout, unbuffered.
func send(_ message: JSONValue) {
    FileHandle.standardOutput.write(Data((message.compactText + "\n").utf8))
}

/// The handshake reply.
func hello(id: JSONValue) -> JSONValue {
    let command = JSONValue.object([
        JSONMember("name", .string("stats")),
        JSONMember("usage", .string("stats [FIELD]")),
        JSONMember("summary", .string("count, sum, min, max and mean of the numbers in $last")),
        JSONMember(
            "help",
            .string(
                "With FIELD, $last is an array of objects and FIELD names the number in each.\n"
                    + "Sets $stats_count to the count.")),
        JSONMember("completions", .array([])),
    ])
    return .object([
        JSONMember("type", .string("hello")), JSONMember("id", id),
        JSONMember("protocol", .integer(protocolVersion)), JSONMember("name", .string("stats")),
        JSONMember("version", .string("1.0.0")), JSONMember("commands", .array([command])),
    ])
}

/// `stats [FIELD]`.
func stats(arguments: [String], session: JSONValue) throws -> [JSONMember] {
    guard arguments.count <= 1 else { throw CommandError(message: "usage: stats [FIELD]") }
    guard case .array(let items)? = session["last"] else {
        throw CommandError(message: "$last must be an array of numbers (or of objects, with FIELD)")
    }
    var numbers: [Double] = []
    for (index, item) in items.enumerated() {
        let value = arguments.first.map { item[$0] } ?? item
        guard let number = value?.doubleValue, number.isFinite else {
            let place = arguments.first.map { "\(index).\($0)" } ?? "\(index)"
            throw CommandError(message: "$last[\(place)] is not a number")
        }
        numbers.append(number)
    }
    guard let smallest = numbers.min(), let largest = numbers.max() else {
        throw CommandError(message: "$last has no numbers")
    }
    let sum = numbers.reduce(0, +)
    let result = JSONValue.object([
        JSONMember("count", .integer(numbers.count)),
        JSONMember("sum", JSONValue.double(sum) ?? .null),
        JSONMember("min", JSONValue.double(smallest) ?? .null),
        JSONMember("max", JSONValue.double(largest) ?? .null),
        JSONMember("mean", JSONValue.double(sum / Double(numbers.count)) ?? .null),
    ])
    return [
        JSONMember("value", result),
        JSONMember("variables", .object([JSONMember("stats_count", .integer(numbers.count))])),
    ]
}

while let line = readLine() {
    guard let message = try? JSONValue(parsing: line), let id = message["id"] else { continue }
    switch message["type"]?.stringValue {
    case "hello":
        send(hello(id: id))
    case "call":
        var words: [String] = []
        if case .array(let items)? = message["args"] { words = items.compactMap(\.stringValue) }
        do {
            let members = try stats(arguments: words, session: message["session"] ?? .object([]))
            send(.object([JSONMember("type", .string("result")), JSONMember("id", id)] + members))
        } catch let error as CommandError {
            send(
                .object([
                    JSONMember("type", .string("error")), JSONMember("id", id),
                    JSONMember("message", .string(error.message)),
                ]))
        }
    default:
        break  // "cancel": stats answers at once, so there is nothing to stop.
    }
}
