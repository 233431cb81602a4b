import Testing

@testable import SophonCore

@Suite struct KeychainEnvironmentTests {
    static let google = "AIzaSyGOOGLE-0000000000000000000000abcd"
    static let gemini = "AIzaSyGEMINI-0000000000000000000000wxyz"

    @Test func googleWinsOverGeminiWithOneWarning() {
        let recorder = LogRecorder()
        let store = EnvironmentSecretStore(
            environment: ["GOOGLE_API_KEY": Self.google, "GEMINI_API_KEY": Self.gemini],
            logger: recorder.makeLogger())
        let found = store.secret(for: "gemini")
        #expect(found == SecretLookup(secret: Self.google, source: .environment(variable: "GOOGLE_API_KEY")))
        let warning = LogEntry(
            level: .warning, message: "Both GOOGLE_API_KEY and GEMINI_API_KEY are set; using GOOGLE_API_KEY.")
        #expect(recorder.entries == [warning])
        _ = store.secret(for: "gemini")
        #expect(recorder.entries == [warning])
    }

    @Test(arguments: [
        (["GEMINI_API_KEY": gemini], gemini, "GEMINI_API_KEY"),
        (["GOOGLE_API_KEY": google], google, "GOOGLE_API_KEY"),
        (["GOOGLE_API_KEY": "", "GEMINI_API_KEY": gemini], gemini, "GEMINI_API_KEY"),
        (["GOOGLE_API_KEY": " \n", "GEMINI_API_KEY": gemini], gemini, "GEMINI_API_KEY"),
        (["GOOGLE_API_KEY": "  \(google)\n"], google, "GOOGLE_API_KEY"),
    ])
    func oneSetVariableNoWarning(environment: [String: String], secret: String, variable: String) {
        let recorder = LogRecorder()
        let store = EnvironmentSecretStore(environment: environment, logger: recorder.makeLogger())
        #expect(
            store.secret(for: "gemini")
                == SecretLookup(secret: secret, source: .environment(variable: variable)))
        #expect(recorder.entries == [])
    }

    @Test(arguments: [
        [String: String](), ["GOOGLE_API_KEY": ""], ["GEMINI_API_KEY": "\t"], ["OTHER": "x"],
    ])
    func nothingSetIsNil(environment: [String: String]) {
        let recorder = LogRecorder()
        let store = EnvironmentSecretStore(environment: environment, logger: recorder.makeLogger())
        #expect(store.secret(for: "gemini") == nil)
        #expect(recorder.entries == [])
    }

    @Test func mappingIsConfigurable() {
        let recorder = LogRecorder()
        let store = EnvironmentSecretStore(
            environment: ["A_KEY": "a", "B_KEY": "b", "C_KEY": "c", "GOOGLE_API_KEY": Self.google],
            variables: ["com.app.key": ["C_KEY", "B_KEY", "A_KEY"]],
            logger: recorder.makeLogger())
        #expect(store.variableNames(for: "com.app.key") == ["C_KEY", "B_KEY", "A_KEY"])
        #expect(
            store.secret(for: "com.app.key")
                == SecretLookup(secret: "c", source: .environment(variable: "C_KEY")))
        #expect(store.secret(for: "gemini") == nil)
        #expect(
            recorder.entries == [
                LogEntry(level: .warning, message: "C_KEY, B_KEY and A_KEY are set; using C_KEY.")
            ])
    }

    @Test func warningNeverShowsTheKey() {
        let recorder = LogRecorder()
        _ = EnvironmentSecretStore(
            environment: ["GOOGLE_API_KEY": Self.google, "GEMINI_API_KEY": Self.gemini],
            logger: recorder.makeLogger()
        ).secret(for: "gemini")
        #expect(recorder.entries.count == 1)
        #expect(recorder.entries.allSatisfy { !$0.message.contains("AIza") })
    }
}
