// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Sophon",
    defaultLocalization: "en",
    platforms: [.macOS(.v15), .iOS(.v18), .macCatalyst(.v18)],
    products: [
        .library(name: "SophonCore", targets: ["SophonCore"]),
        .library(name: "SophonGemini", targets: ["SophonGemini"]),
        .library(name: "SophonMedia", targets: ["SophonMedia"]),
        .library(name: "SophonPrompt", targets: ["SophonPrompt"]),
        .executable(name: "sophon", targets: ["sophon"]),
    ],
    targets: [
        .target(name: "SophonCore"),
        // The system OpenSSL's libcrypto: RS256 for Vertex AI service-account keys (docs/vertex.md).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "SophonGemini",
            dependencies: ["SophonCore", .target(name: "COpenSSL", condition: .when(platforms: [.linux]))],
            resources: [.process("Resources")]
        ),
        .systemLibrary(
            name: "CEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The system SQLite, under the log store that uses it (docs/logs.md).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The exchange log: SQLite with WAL and FTS5 (docs/logs.md).
        .target(
            name: "SophonLogs",
            dependencies: ["SophonCore", .target(name: "CSQLite", condition: .when(platforms: [.linux]))]),
        // The image codecs of SophonMedia on Linux (docs/media.md): TurboJPEG, libpng, libwebp.
        .systemLibrary(
            name: "CImageCodecs",
            providers: [.apt(["libturbojpeg0-dev", "libpng-dev", "libwebp-dev"])]
        ),
        // Image decoding, resizing and re-encoding for downscale on retry (ImageIO on Apple).
        .target(
            name: "SophonMedia",
            dependencies: [
                "SophonGemini", .target(name: "CImageCodecs", condition: .when(platforms: [.linux])),
            ]
        ),
        // The system libyaml, under the prompt-file frontmatter parser (docs/prompts.md).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Dotprompt files: frontmatter, Handlebars, helpers, Picoschema (docs/prompts.md).
        .target(name: "SophonPrompt", dependencies: ["SophonCore", "CYAML"]),
        // How the shell starts plugins and MCP servers: fork and exec with the parent-death signal,
        // so no child outlives a shell killed with SIGKILL.
        .target(name: "CSpawn"),
        // The shell as a library: the language, runtime, plugins and terminal.
        .target(
            name: "SophonShell",
            dependencies: [
                "SophonCore", "SophonGemini", "SophonLogs", "CEdit", "CSpawn", "SophonMedia", "SophonPrompt",
            ]
        ),
        // libcurl and libcrypto opened on first use in the `sophon` executable, so a command that
        // sends nothing does not load them (docs/benchmarks.md, "Start-up"; scripts/build).
        .target(name: "CLazyLibraries"),
        // The `sophon` executable: a few lines around `SophonMain.run`.
        .executableTarget(
            name: "sophon",
            dependencies: [
                "SophonShell", .target(name: "CLazyLibraries", condition: .when(platforms: [.linux])),
            ]),
        // Not shipped: the Swift side of scripts/bench-extract, built in release by that script.
        .executableTarget(name: "SophonBenchExtract", dependencies: ["SophonCore"]),
        // Not shipped: the fault soak behind scripts/soak (docs/reliability.md).
        .executableTarget(name: "SophonSoak", dependencies: ["SophonGemini", "SophonCore"]),
        // An example external plugin in Swift (docs/plugin-protocol.md).
        .executableTarget(
            name: "sophon-plugin-stats", dependencies: ["SophonCore"], path: "examples/plugins/stats"),
        // The benchmark loops `scripts/bench` runs (not part of any product).
        .executableTarget(name: "SophonBench", dependencies: ["SophonCore", "SophonGemini"]),
        // The Swift side of scripts/bench-downscale (not part of any product).
        .executableTarget(name: "SophonBenchMedia", dependencies: ["SophonMedia"]),
        // The Swift side of scripts/bench-prompt.py (not part of any product).
        .executableTarget(name: "SophonBenchPrompt", dependencies: ["SophonPrompt", "SophonCore"]),
        // Test support shared by the test targets (the fake Gemini server process).
        .target(name: "SophonTestSupport", dependencies: ["SophonCore"], path: "Tests/SophonTestSupport"),
        .testTarget(name: "SophonCoreTests", dependencies: ["SophonCore"]),
        .testTarget(
            name: "SophonGeminiTests", dependencies: ["SophonGemini", "SophonCore", "SophonTestSupport"]),
        .testTarget(
            name: "SophonMediaTests",
            dependencies: ["SophonMedia", "SophonGemini", "SophonCore", "SophonTestSupport"]),
        .testTarget(name: "SophonPromptTests", dependencies: ["SophonPrompt", "SophonCore"]),
        .testTarget(
            name: "SophonShellTests",
            dependencies: [
                "SophonShell", "SophonGemini", "SophonCore", "SophonLogs", "SophonTestSupport", "SophonMedia",
            ],
            exclude: ["EndToEnd/Golden", "EndToEnd/PluginGolden", "Support/Plugins"]),
    ],
    swiftLanguageModes: [.v6]
)
