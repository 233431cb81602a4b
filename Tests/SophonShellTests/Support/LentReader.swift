@testable import SophonShell

/// A reader handed to the one thread that runs a read of it: unchecked because the reader is
/// not `Sendable`, safe because the test waits for that read to end before it touches the
/// reader again.
struct LentReader: @unchecked Sendable {
    let reader: any LineSource
}
