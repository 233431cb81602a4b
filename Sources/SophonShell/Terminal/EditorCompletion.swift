import CEdit

/// Tab in ``EditLineReader``: asks the ``LineCompleter`` for the word before the cursor and
/// applies ``LineCompletion/plan(textBeforeCursor:candidates:)`` to libedit's line.
enum EditorCompletion {
    /// Completes the word before the cursor of `editor`.
    /// - Returns: what libedit does next (`CC_REFRESH`, `CC_REDISPLAY` after a list, or
    ///   `CC_REFRESH_BEEP` when nothing completes).
    static func complete(_ editor: OpaquePointer, with completer: LineCompleter?) -> UInt8 {
        guard let completer, let info = el_line(editor), let buffer = info.pointee.buffer,
            let cursor = info.pointee.cursor, let end = info.pointee.lastchar
        else { return UInt8(CC_REFRESH_BEEP) }
        let before = LineCompletion.text(from: buffer, to: cursor)
        let after = LineCompletion.text(from: cursor, to: end)
        let candidates = completer(before + after, before.count)
        switch LineCompletion.plan(textBeforeCursor: before, candidates: candidates) {
        case .none:
            return UInt8(CC_REFRESH_BEEP)
        case .replaceWord(let length, let text):
            if length > 0 { el_deletestr(editor, Int32(length)) }
            return el_insertstr(editor, text) == 0 ? UInt8(CC_REFRESH) : UInt8(CC_REFRESH_BEEP)
        case .list(let items):
            let width = Int(cedit_terminal_columns(editor, 80))
            cedit_write_output(editor, "\n" + LineCompletion.columns(items, width: width))
            return UInt8(CC_REDISPLAY)
        }
    }
}
