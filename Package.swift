// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Sophon",
    platforms: [.macOS(.v15), .iOS(.v18), .macCatalyst(.v18)],
    products: [
        .library(name: "SophonCore", targets: ["SophonCore"]),
        .executable(name: "sophon", targets: ["SophonShell"]),
    ],
    targets: [
        .target(name: "SophonCore"),
        .systemLibrary(
            name: "CEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .executableTarget(
            name: "SophonShell",
            dependencies: ["SophonCore", "CEdit"]
        ),
        .testTarget(name: "SophonCoreTests", dependencies: ["SophonCore"]),
        .testTarget(name: "SophonShellTests", dependencies: ["SophonShell", "SophonCore"]),
    ],
    swiftLanguageModes: [.v6]
)
