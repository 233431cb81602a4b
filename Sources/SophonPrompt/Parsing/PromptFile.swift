import Foundation
import SophonCore

/// Prompt files on disk: `NAME.prompt`, its variants `NAME.VARIANT.prompt`, and partials
/// `_NAME.prompt` beside them (Dotprompt's directory store).
public enum PromptFile {
    /// The file name of prompt `name`, or of its `variant`: `greet.prompt`, `greet.formal.prompt`.
    public static func fileName(_ name: String, variant: String? = nil) -> String {
        variant.map { "\(name).\($0).prompt" } ?? "\(name).prompt"
    }

    /// The name and variant of a prompt file name: `greet.formal.prompt` -> (`greet`, `formal`).
    public static func nameAndVariant(ofFile fileName: String) -> (name: String, variant: String?) {
        var base = (fileName as NSString).lastPathComponent
        if base.hasSuffix(".prompt") { base.removeLast(".prompt".count) }
        guard let dot = base.firstIndex(of: ".") else { return (base, nil) }
        return (String(base[..<dot]), String(base[base.index(after: dot)...]))
    }

    /// The document at `path`, read byte for byte (CRLF kept); a variant file
    /// (`NAME.VARIANT.prompt`) gets `variant` in its metadata unless the frontmatter sets it.
    /// Errors name `shownAs` (the path as the user typed it), else `path`.
    /// - Throws: ``PromptError`` (`.file` at 1:1 when unreadable, saying why as the one file
    ///   error does: `cannot open 'p.prompt': No such file or directory`, `cannot read 'd':
    ///   Is a directory`; `.file` at the line and column of the first byte that is not UTF-8;
    ///   the parse errors).
    public static func load(_ path: String, shownAs: String? = nil) throws(PromptError) -> PromptDocument {
        let file = shownAs ?? path
        guard let text = try text(at: path, shownAs: file) else {
            let missing = SophonFileError(path: file, operation: .open, errorNumber: ENOENT)
            throw PromptError(.file, missing.description, file: file, line: 1, column: 1)
        }
        var document = try PromptDocument(parsing: text, file: file)
        if let variant = nameAndVariant(ofFile: path).variant,
            !document.metadata.contains(where: { $0.key == "variant" })
        {
            document.metadata.insert(JSONMember("variant", .string(variant)), at: 0)
        }
        return document
    }

    /// The partial resolver of a template at `path` (shown as `shownAs` in errors):
    /// `_NAME.prompt` in the same folder, read as a prompt file is read (``load(_:shownAs:)``);
    /// `nil` when there is no such file.
    /// - Throws (from the resolver): ``PromptError`` `.file` naming the partial's file, for one
    ///   that cannot be read (a folder, a FIFO) or is not UTF-8 (at its line and column).
    public static func partials(besides path: String, shownAs: String? = nil)
        -> TemplateRenderer.PartialResolver
    {
        let folder = (path as NSString).deletingLastPathComponent
        let shown = shownAs ?? path
        return { name throws(PromptError) in
            let file = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent("_\(name).prompt")
            return try text(at: file, shownAs: TemplateRenderer.partialFile(name, besides: shown))
        }
    }

    /// The text of the file at `path`, read byte for byte through the one read of a file the
    /// shell is given (a folder, FIFO or device is refused); `nil` when no file is there.
    /// - Throws: ``PromptError`` `.file` naming `file`: at 1:1 when unreadable, saying why;
    ///   at the line and column of the first byte that is not UTF-8, or of a NUL byte.
    static func text(at path: String, shownAs file: String) throws(PromptError) -> String? {
        let data: Data
        do throws(SophonFileError) {
            guard let snapshot = try FileSnapshot.read(at: URL(fileURLWithPath: path)) else { return nil }
            data = snapshot.data
        } catch {
            let named = SophonFileError(
                path: file, operation: error.operation, errorNumber: error.errorNumber,
                destination: error.destination, fileKind: error.fileKind)
            throw PromptError(.file, named.description, file: file, line: 1, column: 1)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let place = UTF8Validator.firstInvalid(in: data) ?? TextLocation(line: 1, column: 1)
            throw PromptError(.file, "not valid UTF-8", file: file, line: place.line, column: place.column)
        }
        // A NUL byte is no prompt text (it would be sent as `\u0000`): a binary file, refused
        // as a script with one is.
        if let nul = data.firstIndex(of: 0) {
            let place = TextLocation(utf8Offset: data.distance(from: data.startIndex, to: nul), in: text)
            throw PromptError(
                .file, "not a text file (a NUL byte)", file: file, line: place.line, column: place.column)
        }
        return text
    }
}
