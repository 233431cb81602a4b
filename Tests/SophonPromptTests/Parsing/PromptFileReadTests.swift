import Foundation
import SophonCore
import Testing

@testable import SophonPrompt

/// A prompt file that cannot be read says why, as the one file error does, and one that is not
/// UTF-8 fails at the line and column of its first bad byte, as a script line does.
@Suite struct PromptFileReadTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prompt-read-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aMissingFileSaysNoSuchFile() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = promptError {
            _ = try PromptFile.load(
                folder.appendingPathComponent("missing.prompt").path, shownAs: "missing.prompt")
        }
        #expect(
            error
                == PromptError(
                    .file, "cannot open 'missing.prompt': No such file or directory", file: "missing.prompt",
                    line: 1, column: 1))
    }

    @Test func aFolderSaysItIsADirectory() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = promptError { _ = try PromptFile.load(folder.path, shownAs: "prompts") }
        #expect(error?.description == "prompts:1:1: cannot read 'prompts': Is a directory")
    }

    @Test func invalidUTF8IsReportedAtItsLineAndColumn() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.prompt")
        // Line 4, after "héllo " (6 scalars): column 7.
        try Data(Array("---\nmodel: m\n---\nhéllo ".utf8) + [0xFF] + Array(" world\n".utf8)).write(to: path)
        let error = promptError { _ = try PromptFile.load(path.path, shownAs: "bad.prompt") }
        #expect(error == PromptError(.file, "not valid UTF-8", file: "bad.prompt", line: 4, column: 7))
    }

    @Test func aNULByteIsReportedAtItsLineAndColumn() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nul.prompt")
        // Line 4, after "héllo " (6 scalars): column 7.
        try Data(Array("---\nmodel: m\n---\nhéllo ".utf8) + [0] + Array(" world\n".utf8)).write(to: path)
        let error = promptError { _ = try PromptFile.load(path.path, shownAs: "nul.prompt") }
        #expect(
            error
                == PromptError(.file, "not a text file (a NUL byte)", file: "nul.prompt", line: 4, column: 7))
    }

    /// A partial is read as the prompt file is: one that is not UTF-8, or a folder, fails with
    /// its own file and place (both read as `unknown partial 'sig'` at the template's tag).
    @Test func aPartialIsReadAsAPromptFileIs() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("card.prompt").path
        try Data("Hello {{> sig}}\n".utf8).write(to: URL(fileURLWithPath: path))
        let partial = folder.appendingPathComponent("_sig.prompt")
        func rendered() -> PromptError? {
            promptError {
                _ = try PromptRenderer(
                    partialResolver: PromptFile.partials(besides: path, shownAs: "p/card.prompt")
                )
                .render(try PromptFile.load(path, shownAs: "p/card.prompt"))
            }
        }
        try Data(Array("ok\nbad ".utf8) + [0xFF] + Array(" here\n".utf8)).write(to: partial)
        #expect(
            rendered() == PromptError(.file, "not valid UTF-8", file: "p/_sig.prompt", line: 2, column: 5))
        try FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
        #expect(rendered()?.description == "p/_sig.prompt:1:1: cannot read 'p/_sig.prompt': Is a directory")
        try FileManager.default.removeItem(at: partial)
        #expect(rendered()?.description == "p/card.prompt:1:7: unknown partial 'sig'")
        try Data("Sir".utf8).write(to: partial)
        #expect(rendered() == nil)
    }

    @Test func theFirstInvalidPlaceCountsScalarsPerLine() {
        #expect(UTF8Validator.firstInvalid(in: Array("ok\nfine".utf8)) == nil)
        #expect(UTF8Validator.firstInvalid(in: [0xC3]) == TextLocation(line: 1, column: 1))
        #expect(
            UTF8Validator.firstInvalid(in: Array("a\n\nab€".utf8) + [0xE2, 0x82])
                == TextLocation(line: 3, column: 4))
    }
}
