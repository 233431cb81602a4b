import Foundation

// SwiftPM generates `Bundle.module` for a target with resources; the fuzz build compiles
// SophonGemini with swiftc alone, so it supplies the accessor: scripts/fuzz points
// SOPHON_FUZZ_RESOURCES at Sources/SophonGemini/Resources, so error texts come from the real
// string tables (their `%@` formats included).
extension Bundle {
    /// The bundle holding SophonGemini's resources in fuzz builds.
    static var module: Bundle {
        ProcessInfo.processInfo.environment["SOPHON_FUZZ_RESOURCES"].flatMap { Bundle(path: $0) }
            ?? Bundle.main
    }
}
