import Testing

@testable import SophonShell

/// `--no-log` and `--continue` on the command line (docs/logs.md).
@Suite struct InvocationLogFlagsTests {
    @Test func noLogAndContinueAreFlags() throws {
        let invocation = try Invocation.parse(
            ["--no-log", "--continue", "chat", "hi"], isCommand: { $0 == "chat" })
        #expect(invocation.noLog)
        #expect(invocation.continueConversation)
        #expect(invocation.action == .oneCommand(name: "chat", arguments: ["hi"]))
    }

    @Test func withoutThemLoggingIsOnAndNothingResumes() throws {
        let invocation = try Invocation.parse(["chat", "--continue"], isCommand: { $0 == "chat" })
        #expect(!invocation.noLog)
        #expect(!invocation.continueConversation)
        #expect(invocation.action == .oneCommand(name: "chat", arguments: ["--continue"]))
    }
}
