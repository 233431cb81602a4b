/// Exit statuses of `sophon` (docs/commands.md).
enum ShellExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let interrupted: Int32 = 130
}
