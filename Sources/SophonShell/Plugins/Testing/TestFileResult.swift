/// The outcome of one script under `sophon test` (docs/commands.md, "test").
struct TestFileResult: Sendable, Equatable {
    /// One failed expectation or error of the file.
    struct Failure: Sendable, Equatable {
        /// `FILE:LINE` (or `FILE:LINE:COL` for a parse error; `FILE` alone for a file that did not
        /// run).
        var location: String
        /// The `expect` line as written, for a failed expectation; `nil` for an error.
        var expectation: String?
        /// The message: for an expectation, both values (`expected 2015 == 2016`).
        var message: String

        /// Whether this is a failed expectation rather than an error.
        var isExpectation: Bool { expectation != nil }
    }

    /// The script's path as shown.
    var path: String
    /// How many expectations it evaluated (passed and failed).
    var expects: Int
    /// Wall-clock time of the run, in seconds.
    var seconds: Double
    /// What went wrong, in the order it happened; empty when the file passed.
    var failures: [Failure]

    /// Whether the file passed: it ran to the end with status 0 and nothing failed.
    var passed: Bool { failures.isEmpty }
}
