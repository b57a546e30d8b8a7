// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SwiftDBAI",
    platforms: [
        .macOS(.v14),
        .iOS(.v17),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "SwiftDBAI", targets: ["SwiftDBAI"]),
        .library(name: "SwiftDBAIChat", targets: ["SwiftDBAIChat"]),
        .library(name: "SwiftDBAIAsyncHTTPClient", targets: ["SwiftDBAIAsyncHTTPClient"]),
        .library(name: "SwiftDBAIMCP", targets: ["SwiftDBAIMCP"]),
        .library(name: "SwiftDBAIMCPHTTP", targets: ["SwiftDBAIMCPHTTP"]),
        .executable(name: "dbai-mcp", targets: ["dbai-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Datasette metadata files in YAML (`--metadata`).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // HMAC-SHA256 of the requestState of 2026-07-28 confirmations (already built for the
        // HTTP client's TLS; CryptoKit on Apple platforms).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // The HTTP server of `dbai-mcp --http` (Streamable HTTP), without its optional traits
        // (swift-configuration, full Foundation).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The server's metrics (the OpenTelemetry names for MCP), and `--metrics HOST:PORT`,
        // which serves them in the Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Traces (a span per request, per SQLite statement, per model call), through the
        // swift-distributed-tracing API; `dbai-mcp` exports them with SwiftDBAITraceExport, and its
        // metrics and logs with swift-otel's OTLP/HTTP exporters, when the standard
        // OTEL_EXPORTER_OTLP_* variables are set. OTLP/HTTP only: the gRPC trait would link
        // grpc-swift and HTTP/2.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation --target SwiftDBAI` (and `--target SwiftDBAIChat`,
        // `--target SwiftDBAIMCP`): the Documentation.docc catalog of each.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The package's primitives (a lock, a readers–writer turn queue, the size of text in a
        // JSON string), shared by the library and the protocol kernel, which knows nothing of
        // databases.
        .target(name: "SwiftDBAIPrimitives"),
        // SQLite's pre-update hook (a write's rows before and after, for the audit log) and its
        // variadic sqlite3_db_config (triggers off while an undo restores rows), which Swift
        // cannot call through GRDB's module.
        .target(name: "CSQLiteHooks"),
        // A socket filter that makes a draining server's listener ignore new connection attempts
        // while the ones already made are accepted and read (Linux), before it closes.
        .target(name: "CListenerGate"),
        .target(
            name: "SwiftDBAI",
            dependencies: [
                "SwiftDBAIPrimitives",
                "CSQLiteHooks",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The statement classifier installs its own SQLite authorizer on a
                // private connection; GRDB does not expose what a statement writes.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 of a write's rows (a confirmation's signature, checked by any replica).
                .product(name: "Crypto", package: "swift-crypto"),
                // A span per statement when the caller traces (the API only: no exporter).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Questions in plain language: the ChatEngine, its rewrite pipeline and prompts, and the
        // language-model providers. The core library stays the safe executor without them.
        .target(
            name: "SwiftDBAIChat",
            dependencies: [
                "SwiftDBAI", "SwiftDBAIPrimitives",
                // A span per language-model call (the gen_ai conventions) when the caller traces.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The language models' HTTP transport on AsyncHTTPClient, kept out of the core library so
        // that it links neither NIO nor FoundationNetworking.
        .target(
            name: "SwiftDBAIAsyncHTTPClient",
            dependencies: [
                "SwiftDBAIChat",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The MCP protocol kernel, which knows nothing of databases: JSON-RPC messages, the
        // dispatcher and its method table, turns, reply channels, the stdio transport, the two
        // revisions' eras and the session's protocol facts.
        .target(
            name: "SwiftDBAIMCPKernel",
            dependencies: [
                "SwiftDBAIPrimitives",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SwiftDBAIMCP",
            dependencies: [
                "SwiftDBAI",
                "SwiftDBAIPrimitives",
                "SwiftDBAIMCPKernel",
                "SwiftDBAIChat",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The result view's source; Scripts/embed-view writes it into ResultViewDocument.swift,
            // so that the binary carries it without a resource bundle.
            exclude: ["Apps/result-view.html"]
        ),
        // The OAuth 2.1 resource server of `dbai-mcp --http --oauth-issuer`: discovery of the
        // authorization server, its key set, JWT access tokens and introspection. It knows
        // neither HTTP servers nor databases; it reaches the authorization server through a
        // protocol the command line fills with the language models' HTTP client.
        .target(
            name: "SwiftDBAIOAuth",
            dependencies: [
                "SwiftDBAIPrimitives",
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA public keys from a JWK's modulus and exponent (BoringSSL, already linked).
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // MCP Streamable HTTP (`dbai-mcp --http`) on Hummingbird 2: the HTTP server under
        // SwiftDBAIMCP's endpoint, which decides every answer.
        .target(
            name: "SwiftDBAIMCPHTTP",
            dependencies: [
                "SwiftDBAIMCP",
                "SwiftDBAIPrimitives",
                "SwiftDBAIMCPKernel",
                "SwiftDBAIOAuth",
                "CListenerGate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // What the static release binary (Scripts/build-release) links in: the libcurl functions
        // FoundationNetworking (linked in by the MCP SDK) calls, loading libcurl on first use, so
        // the binary does not need libcurl; and the subset of ICU's data it carries.
        .target(
            name: "CStaticBinarySupport",
            cSettings: [.define("DBAI_LAZY_LIBCURL", .when(platforms: [.linux], configuration: .release))]
        ),
        // The export of `dbai-mcp`'s spans: a swift-distributed-tracing tracer that samples,
        // batches and posts them to an OpenTelemetry collector in OTLP/HTTP (protobuf written
        // field by field). swift-otel exports the metrics and logs; its span exporter costs
        // several times the server's own work per call (docs/benchmarks.md).
        .target(
            name: "SwiftDBAITraceExport",
            dependencies: [
                "SwiftDBAIPrimitives",
                // SpanAttributeListRecording: the package's spans record their attributes as a list.
                "SwiftDBAI",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "dbai-mcp",
            dependencies: [
                "SwiftDBAIMCP",
                "SwiftDBAIMCPHTTP",
                "SwiftDBAIOAuth",
                "SwiftDBAIAsyncHTTPClient",
                "SwiftDBAITraceExport",
                .target(name: "CStaticBinarySupport", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ]
        ),
        // Fresh databases for the tests of every module.
        .target(
            name: "SwiftDBAITestSupport",
            dependencies: ["SwiftDBAI", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/SwiftDBAITestSupport"
        ),
        .testTarget(
            name: "SwiftDBAIPrimitivesTests",
            dependencies: ["SwiftDBAIPrimitives"]
        ),
        .testTarget(
            name: "SwiftDBAITests",
            dependencies: ["SwiftDBAI", "SwiftDBAIPrimitives", "SwiftDBAITestSupport"]
        ),
        .testTarget(
            name: "SwiftDBAIChatTests",
            dependencies: ["SwiftDBAIChat", "SwiftDBAIPrimitives", "SwiftDBAIAsyncHTTPClient", "SwiftDBAITestSupport"]
        ),
        // A transport the tests script, for the kernel's and the server's tests.
        .target(
            name: "SwiftDBAIMCPKernelTestSupport",
            dependencies: ["SwiftDBAIMCPKernel", .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/SwiftDBAIMCPKernelTestSupport"
        ),
        .testTarget(
            name: "SwiftDBAIMCPKernelTests",
            dependencies: [
                "SwiftDBAIMCPKernel", "SwiftDBAIMCPKernelTestSupport", "SwiftDBAIPrimitives",
                .product(name: "MCP", package: "swift-sdk"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SwiftDBAIMCPHTTPTests",
            dependencies: [
                "SwiftDBAIMCPHTTP", "SwiftDBAIMCP", "SwiftDBAIMCPKernel", "SwiftDBAITestSupport", "SwiftDBAIOAuth",
                "SwiftDBAIOAuthTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // An authorization server the tests script: signing keys, tokens forged part by part,
        // metadata, key set and introspection served from memory.
        .target(
            name: "SwiftDBAIOAuthTestSupport",
            dependencies: [
                "SwiftDBAIOAuth", "SwiftDBAIPrimitives",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/SwiftDBAIOAuthTestSupport"
        ),
        .testTarget(
            name: "SwiftDBAIOAuthTests",
            dependencies: [
                "SwiftDBAIOAuth", "SwiftDBAIOAuthTestSupport", "SwiftDBAIPrimitives",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SwiftDBAITraceExportTests",
            dependencies: [
                "SwiftDBAITraceExport", "SwiftDBAIPrimitives", "SwiftDBAI",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SwiftDBAIMCPTests",
            dependencies: [
                "SwiftDBAIMCP", "SwiftDBAIMCPKernel", "SwiftDBAIMCPKernelTestSupport", "SwiftDBAIChat", "SwiftDBAIPrimitives",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
