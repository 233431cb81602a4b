import Testing

@testable import SophonCore

@Suite struct KeychainMaskTests {
    @Test(arguments: [
        ("AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f", "••••cD3f"),
        ("abcdefghijkl", "••••ijkl"),
        ("abcdefghijk", "••••"),
        ("abc", "••••"),
        ("", "••••"),
        ("0123456789-ключ", "••••ключ"),
    ])
    func mask(secret: String, expected: String) {
        #expect(SecretMask.mask(secret) == expected)
    }

    @Test(arguments: [
        (
            "key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f&alt=sse",
            ["AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f"],
            "key=••••cD3f&alt=sse"
        ),
        ("a SECRETVALUE-0001 b SECRETVALUE-0001", ["SECRETVALUE-0001"], "a ••••0001 b ••••0001"),
        ("short pw here", ["pw"], "short •••• here"),
        ("nothing to hide", ["SECRETVALUE-0001"], "nothing to hide"),
        ("empty secret", [""], "empty secret"),
        ("x LONGSECRET-PREFIX-9999 y", ["LONGSECRET", "LONGSECRET-PREFIX-9999"], "x ••••9999 y"),
        (
            "one FIRSTSECRET-AAAA two SECONDSECRET-BBBB", ["FIRSTSECRET-AAAA", "SECONDSECRET-BBBB"],
            "one ••••AAAA two ••••BBBB"
        ),
        ("DebugInfo: \"SECRETVALUE-0001\u{301}\"", ["SECRETVALUE-0001"], "DebugInfo: \"••••0001\u{301}\""),
    ])
    func redact(text: String, secrets: [String], expected: String) {
        #expect(SecretMask.redact(text, secrets: secrets) == expected)
    }
}
