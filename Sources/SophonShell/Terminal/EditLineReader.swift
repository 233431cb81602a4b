import CEdit
import Foundation
import SophonCore
import Synchronization

/// The terminal line editor: libedit (BSD licence) through the `CEdit` shim. Nothing else
/// in the shell touches libedit.
///
/// - Emacs key map by default; `$EDITRC` (else `~/.editrc`) is read after the defaults, so a
///   user's `bind -v` or key bindings win; its lines may start with `sophon:`. In vi mode
///   bracketed paste stays off (its marker would turn Esc into a key sequence's start). LC_CTYPE is set from the environment (falling
///   back to `C.UTF-8`) before `el_init`, so UTF-8 is edited by character.
/// - History lives in libedit's memory (Up, Down, Ctrl-R), starting with the entries of
///   the ``HistoryFile``; ``record(_:)`` adds an entry there and appends it to the file.
/// - Tab calls the ``LineCompleter`` (see ``LineCompletion/plan(textBeforeCursor:candidates:)``).
/// - Ctrl-C while editing returns `.interrupted`; Ctrl-D on an empty line `.endOfInput`.
///   Characters are read through a replacement for libedit's read function that also waits
///   on ``InterruptSignal``'s pipe, so Ctrl-C works whichever thread took the signal.
/// - The terminal is restored after every read (libedit leaves raw mode when `el_gets`
///   returns), by ``EditorSignals`` on SIGTERM, SIGHUP and Ctrl-Z while editing, and by
///   `el_end` in ``close()``, in `deinit`, and at `exit()`.
/// - Bracketed paste is turned on at the first prompt and off before a secret prompt, in
///   ``close()``, at `exit()` and on signals (``EditorSignals``): pasted text is inserted
///   literally, Tabs included, without its markers; each line break in it enters a line
///   (``PastedText``).
/// - Ctrl-Left / Ctrl-Right (and Alt-Left / Alt-Right, in the forms xterm, rxvt and others
///   send) move by word; Home, End and Delete in their common forms are bound too.
/// - libedit's signal handling is off (it re-sends signals to the whole process group);
///   ``EditorSignals`` restores the terminal on SIGTERM, SIGHUP and Ctrl-Z instead.
///
/// Known limit of libedit 3.1: the cursor moves by code point, so Left into a combining
/// mark, a ZWJ emoji or a flag splits it; what is sent is still valid UTF-8.
///
/// Use from one thread at a time; callbacks reach the reader through `EL_CLIENTDATA`. The
/// completer runs inside ``readLine(prompt:)``, on the calling thread: call `readLine` where
/// the completer may run (a closure formed on the main actor is main-actor isolated, and
/// calling it from another thread traps), or make the completer `@Sendable`.
final class EditLineReader: LineSource {
    private var editor: OpaquePointer?
    private var history: OpaquePointer?
    private let historyFile: HistoryFile?
    private let completer: LineCompleter?
    private let input: Int32
    private let output: Int32
    private var streams: (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)?
    private var prompt: UnsafeMutablePointer<CChar>?
    private var interruptedDuringRead = false
    /// Characters the read function returns before reading the terminal (the rest of a
    /// paste is resumed through them).
    private var injected: [wchar_t] = []
    /// What remains of a paste after a line break: pasted into the next line.
    private var pendingPaste: [UInt8] = []
    /// Whether the next paste function call takes ``pendingPaste`` instead of reading.
    private var resumingPaste = false
    /// Whether bracketed paste is turned on while editing (not in vi mode).
    private var bracketsPastes = true

    /// The error from loading the history file at start, if any (the REPL may warn once).
    /// The session goes on with an empty history, and the file is never rewritten.
    private(set) var historyLoadError: HistoryFileError?

    /// Starts the editor on standard input and output. The caller checked that both are
    /// terminals and that `TERM` is set and not `dumb` (``LineReaderFactory`` does).
    /// - Parameters:
    ///   - historyFile: loaded now into the in-memory history; nil with `--no-history`.
    ///   - completer: called on Tab; nil makes Tab ring the bell.
    ///   - programName: the name `~/.editrc` lines can be prefixed with (`sophon:bind ...`).
    ///   - terminal: other descriptors than standard input and output (tests use a
    ///     pseudo-terminal); they stay open and owned by the caller.
    ///   - terminalType: a terminfo name overriding `TERM` (tests).
    ///   - readsEditrc: whether `~/.editrc` is read (tests turn it off).
    /// - Returns: nil when libedit cannot start.
    init?(
        historyFile: HistoryFile?, completer: LineCompleter?, programName: String = "sophon",
        terminal: (input: Int32, output: Int32)? = nil, terminalType: String? = nil, readsEditrc: Bool = true
    ) {
        self.historyFile = historyFile
        self.completer = completer
        input = terminal?.input ?? STDIN_FILENO
        output = terminal?.output ?? STDOUT_FILENO
        InterruptSignal.installInteractiveHandler()
        _ = cedit_prepare_utf8_locale()
        let started: OpaquePointer?
        if let terminal {
            guard let inputStream = fdopen(dup(terminal.input), "r") else { return nil }
            guard let outputStream = fdopen(dup(terminal.output), "w") else {
                fclose(inputStream)
                return nil
            }
            streams = (inputStream, outputStream)
            started = el_init_fd(
                programName, inputStream, outputStream, outputStream, fileno(inputStream),
                fileno(outputStream), fileno(outputStream))
        } else {
            started = cedit_init(programName)
        }
        guard let editor = started else {
            closeStreams()
            return nil
        }
        self.editor = editor
        if let terminalType { _ = cedit_set_terminal(editor, terminalType) }
        history = cedit_history_init(Int32(HistoryFile.defaultLimit))
        if let history { _ = cedit_set_history(editor, history) }
        _ = cedit_set_client_data(editor, Unmanaged.passUnretained(self).toOpaque())
        _ = cedit_set_editor(editor, "emacs")
        _ = cedit_set_signal_handling(editor, 0)
        EditorSignals.install(input: input, output: output)
        _ = cedit_set_prompt(editor, Self.promptCallback)
        _ = cedit_set_getc(editor, Self.readCharacterCallback)
        _ = cedit_add_function(editor, "sophon-complete", "Complete the word", Self.completeCallback)
        _ = cedit_bind(editor, "^I", "sophon-complete")
        _ = cedit_add_function(editor, "sophon-paste", "Insert pasted text literally", Self.pasteCallback)
        _ = cedit_bind(editor, EditorKeyBindings.pasteTrigger, "sophon-paste")
        for (sequence, function) in EditorKeyBindings.extraBindings {
            _ = cedit_bind(editor, sequence, function)
        }
        if readsEditrc, let path = Self.editrcPath() {
            _ = el_source(editor, path)
            // `bind -v` there replaces the key maps. The paste marker bound in vi's insert map
            // would make Esc the start of a sequence (Esc then `0` would beep): in vi mode a
            // paste arrives as typed keys.
            bracketsPastes = cedit_editor_is_vi(editor) == 0
        }
        loadHistory()
        EditorSignals.registerForExit(editor)
    }

    deinit { close() }

    /// The user's libedit settings: `$EDITRC`, else `$HOME/.editrc`; nil when neither is set or
    /// the process runs set-user-ID. Resolved here because libedit's own lookup
    /// (`el_source(editor, NULL)`) gives up on systems without `issetugid`, glibc's among them.
    static func editrcPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard getuid() == geteuid(), getgid() == getegid() else { return nil }
        if let path = environment["EDITRC"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.editrc"
    }

    /// Edits one line.
    /// - Parameter prompt: shown before the line (`sophon> ` or `   ...> `).
    /// - Returns: the line without its newline (recalled multi-line entries keep their
    ///   inner `\n`s); `.interrupted` after Ctrl-C; `.endOfInput` after Ctrl-D on an empty
    ///   line, at end of input, or after ``close()``.
    func readLine(prompt text: String) -> LineInput {
        guard let editor else { return .endOfInput }
        free(prompt)
        prompt = strdup(text)
        InterruptSignal.discardPending()
        interruptedDuringRead = false
        if EditorSignals.takeResize() { el_resize(editor) }
        if !pendingPaste.isEmpty {
            resumingPaste = true
            injected = Array("\u{1B}[200~".unicodeScalars.map { wchar_t(bitPattern: $0.value) })
        }
        EditorSignals.setBracketedPaste(bracketsPastes)
        EditorSignals.beginEditing()
        var count: Int32 = 0
        let read = el_gets(editor, &count)
        EditorSignals.endEditing()
        guard let line = read else {
            pendingPaste = []
            resumingPaste = false
            injected = []
            let interrupted = interruptedDuringRead || InterruptSignal.takePending()
            interruptedDuringRead = false
            cedit_write_output(editor, "\n")
            return interrupted ? .interrupted : .endOfInput
        }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        return .line(text)
    }

    /// Reads a line with echo off, outside libedit (the line is neither shown nor added to
    /// history). The terminal is in its normal mode between `el_gets` calls, so the kernel
    /// reads exactly one line and edits it (Backspace, Ctrl-U).
    /// - Returns: the line; `.interrupted` after Ctrl-C; `.endOfInput` at end of input.
    func readSecret(prompt text: String) -> LineInput {
        guard editor != nil else { return .endOfInput }
        EditorSignals.setBracketedPaste(false)  // A pasted key must arrive without markers.
        let sink = FileDescriptorSink(descriptor: output)
        if !pendingPaste.isEmpty {
            // `key set` and the key pasted together: the key is the paste's next line, never
            // shown, and never left to be run as a command.
            let line = PastedText.firstLine(pendingPaste)
            pendingPaste = line.rest
            sink.write(text + "\n")
            return .line(line.text)
        }
        let reader = PlainLineReader(descriptor: input, promptSink: { sink.write($0) }, interruptible: true)
        let result = TerminalEcho.withEchoDisabled(on: input) { reader.readLine(prompt: text) }
        if result == .interrupted { InterruptSignal.interruptRunningCommand() }
        return result
    }

    /// Reads an answer to a command's question outside libedit, shown as typed and kept out of
    /// history: the terminal is in its normal mode between `el_gets` calls, so the kernel reads
    /// and edits exactly one line. Text still pending from a paste is left alone (a pasted line
    /// never answers a consent question).
    /// - Returns: the line; `.interrupted` after Ctrl-C (the running command is interrupted);
    ///   `.endOfInput` at end of input.
    func readAnswer(prompt text: String) -> LineInput {
        guard editor != nil else { return .endOfInput }
        EditorSignals.setBracketedPaste(false)
        let sink = FileDescriptorSink(descriptor: output)
        let reader = PlainLineReader(descriptor: input, promptSink: { sink.write($0) }, interruptible: true)
        let result = reader.readLine(prompt: text)
        if result == .interrupted { InterruptSignal.interruptRunningCommand() }
        return result
    }

    /// Adds the entry to the in-memory history (Up recalls it) and appends it to the
    /// history file. Blank entries and entries starting with a space are skipped; an entry
    /// equal to the previous one is not repeated.
    /// - Throws: `HistoryFileError` from ``HistoryFile/append(_:)``.
    func record(_ entry: String) throws(HistoryFileError) {
        guard HistoryFile.isStorable(entry) else { return }
        if let history { _ = cedit_history_enter(history, entry) }
        try historyFile?.append(entry)
    }

    /// Ends the editor and restores the terminal as it was found (idempotent).
    func close() {
        EditorSignals.setBracketedPaste(false)
        if let editor {
            EditorSignals.unregisterForExit(editor)
            el_end(editor)
            self.editor = nil
        }
        if let history {
            history_end(history)
            self.history = nil
        }
        free(prompt)
        prompt = nil
        closeStreams()
    }

    private func closeStreams() {
        if let streams {
            fclose(streams.input)
            fclose(streams.output)
            self.streams = nil
        }
    }

    private func loadHistory() {
        guard let historyFile, let history else { return }
        do {
            for entry in try historyFile.load() {
                _ = cedit_history_enter(history, entry)
            }
        } catch {
            historyLoadError = error
        }
    }

    // MARK: - Callbacks (C function pointers: no captures; state via EL_CLIENTDATA)

    private static func reader(of editor: OpaquePointer?) -> EditLineReader? {
        guard let editor, let data = cedit_client_data(editor) else { return nil }
        return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
    }

    private static let promptCallback: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>? = {
        editor in
        EditLineReader.reader(of: editor)?.prompt
    }

    /// Reads one character as libedit's own `read_char` does (one byte at a time, decoded
    /// with `mbrtowc`; invalid bytes are dropped), waiting on the SIGINT pipe as well.
    /// Returns 1 with a character, 0 at end of input, -1 after Ctrl-C or a read error.
    private static let readCharacterCallback:
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32 = { editor, character in
            guard let reader = EditLineReader.reader(of: editor), let character else { return -1 }
            return reader.readCharacter(into: character)
        }

    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if !injected.isEmpty {
            character.pointee = injected.removeFirst()
            return 1
        }
        if let editor, EditorSignals.takeResize() { el_resize(editor) }
        var bytes: [CChar] = []
        while true {
            if InterruptSignal.waitForInput(on: input) == .interrupted {
                interruptedDuringRead = true
                errno = EINTR
                return -1
            }
            var byte: CChar = 0
            let count: Int
            do { count = try Self.readByte(input, into: &byte) } catch {
                if error.errorNumber == EAGAIN { continue }
                errno = error.errorNumber
                return -1
            }
            if count == 0 {
                character.pointee = 0
                return 0
            }
            bytes.append(byte)
            while !bytes.isEmpty {
                var state = mbstate_t()
                var decoded: wchar_t = 0
                let result = bytes.withUnsafeBufferPointer {
                    mbrtowc(&decoded, $0.baseAddress, $0.count, &state)
                }
                if result == -2 {
                    if bytes.count >= 8 { bytes.removeAll() }  // Too long to be a character.
                    break
                }
                if result == -1 {
                    // Invalid: drop it, but let its last byte start the next character.
                    bytes = bytes.count > 1 ? [byte] : []
                    continue
                }
                character.pointee = decoded
                return 1
            }
        }
    }

    // MARK: - Bracketed paste and key bindings

    private static let pasteCallback: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { editor, _ in
        guard let editor, let reader = EditLineReader.reader(of: editor) else { return UInt8(CC_ERROR) }
        return reader.paste(editor)
    }

    /// Inserts one line of a paste literally; a line break after it enters the line (a CR
    /// is injected, read as Enter) and keeps the rest for the next ``readLine(prompt:)``.
    private func paste(_ editor: OpaquePointer) -> UInt8 {
        if resumingPaste {
            resumingPaste = false
        } else {
            guard let bytes = readPastedBytes() else {
                interruptedDuringRead = true
                return UInt8(CC_EOF)
            }
            pendingPaste = PastedText.content(bytes)
        }
        let line = PastedText.firstLine(pendingPaste)
        pendingPaste = line.rest
        if !line.text.isEmpty, el_insertstr(editor, line.text) != 0 {
            pendingPaste = []
            return UInt8(CC_REFRESH_BEEP)
        }
        if line.endsLine { injected.append(wchar_t(0x0D)) }
        return UInt8(CC_REFRESH)
    }

    /// The bytes after a paste's start marker, up to and including its end marker (or to
    /// end of input); nil after Ctrl-C.
    private func readPastedBytes() -> [UInt8]? {
        var bytes: [UInt8] = []
        while !PastedText.endsWithEndMarker(bytes) {
            if InterruptSignal.waitForInput(on: input) == .interrupted { return nil }
            var byte: UInt8 = 0
            let count: Int
            do { count = try Self.readByte(input, into: &byte) } catch {
                if error.errorNumber == EAGAIN { continue }
                break
            }
            if count == 0 { break }
            bytes.append(byte)
        }
        return bytes
    }

    /// One byte from `input` (``FileDescriptorReader``); 0 at the end of input.
    private static func readByte<Byte>(_ input: Int32, into byte: inout Byte) throws(FileDescriptorError)
        -> Int
    {
        try withUnsafeMutableBytes(of: &byte) { buffer throws(FileDescriptorError) in
            try FileDescriptorReader.read(input, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<1]))
        }
    }

    private static let completeCallback: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { editor, _ in
        guard let editor, let reader = EditLineReader.reader(of: editor) else { return UInt8(CC_ERROR) }
        return EditorCompletion.complete(editor, with: reader.completer)
    }
}
