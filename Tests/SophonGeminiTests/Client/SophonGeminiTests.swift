import Testing

@testable import SophonGemini

@Suite struct SophonGeminiTests {
    @Test func apiVersion() { #expect(SophonGemini.apiVersion == "v1beta") }
}
