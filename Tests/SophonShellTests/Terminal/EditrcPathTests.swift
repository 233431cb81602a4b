import Testing

@testable import SophonShell

/// Where the editor reads the user's libedit settings (issue 25 point 9): libedit's own lookup
/// gives up on glibc, so the shell resolves the path itself.
@Suite struct EditrcPathTests {
    @Test func editrcWinsOverHome() {
        let path = EditLineReader.editrcPath(environment: ["EDITRC": "/etc/sophon-keys", "HOME": "/home/ada"])
        #expect(path == "/etc/sophon-keys")
    }

    @Test func homeEditrcWithoutEditrc() {
        #expect(EditLineReader.editrcPath(environment: ["HOME": "/home/ada"]) == "/home/ada/.editrc")
        #expect(
            EditLineReader.editrcPath(environment: ["EDITRC": "", "HOME": "/home/ada"]) == "/home/ada/.editrc"
        )
    }

    @Test func noneWithoutHomeOrEditrc() {
        #expect(EditLineReader.editrcPath(environment: [:]) == nil)
    }
}
