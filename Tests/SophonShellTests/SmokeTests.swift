import Testing

@Suite struct SmokeTests {
    @Test func placeholder() { #expect(1 + 1 == 2) }
}
