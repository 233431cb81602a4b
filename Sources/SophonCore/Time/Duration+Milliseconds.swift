extension Duration {
    /// The duration in whole milliseconds, rounded toward zero: what the log's `duration_ms`,
    /// `--verbose` lines, poll timeouts and duration texts count in.
    package var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
