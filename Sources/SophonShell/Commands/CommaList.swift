import Foundation

/// The value of an option that takes a comma list (`--models A,B`, `compare --prompts
/// A.prompt,B.prompt`): its items in order, trimmed of spaces (docs/commands.md).
enum CommaList {
    /// The items of `list`, given to `option` of `command`, in order, trimmed.
    /// - Parameters:
    ///   - list: the option's value, e.g. `a, b`.
    ///   - command: the command's name, which starts each message.
    ///   - option: the option, e.g. `--models`.
    ///   - noun: what the items are, for the message of an empty list (`model IDs`).
    /// - Throws: ``CommandFailure`` (`usage`) for no item, an empty item (`a,,b`) or an item given
    ///   twice (each model or file would be asked, and paid for, twice), before anything is sent.
    static func items(_ list: String, command: String, option: String, noun: String) throws -> [String] {
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard items.contains(where: { !$0.isEmpty }) else {
            throw CommandFailure(
                kind: .usage, message: "\(command): \(option) needs \(noun) separated by commas")
        }
        if let empty = items.firstIndex(of: "") {
            throw CommandFailure(
                kind: .usage, message: "\(command): \(option): item \(empty + 1) of '\(list)' is empty")
        }
        var seen: Set<String> = []
        for item in items where !seen.insert(item).inserted {
            throw CommandFailure(kind: .usage, message: "\(command): \(option): '\(item)' is given twice")
        }
        return items
    }
}
