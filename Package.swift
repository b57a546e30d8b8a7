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
        .library(name: "SwiftDBAIMCP", targets: ["SwiftDBAIMCP"]),
        .executable(name: "dbai-mcp", targets: ["dbai-mcp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "SwiftDBAI",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // The statement classifier installs its own SQLite authorizer on a
                // private connection; GRDB does not expose what a statement writes.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "SwiftDBAIMCP",
            dependencies: [
                "SwiftDBAI",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "dbai-mcp",
            dependencies: [
                "SwiftDBAIMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "dbai-bench",
            dependencies: ["SwiftDBAI", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/dbai-bench"
        ),
        .testTarget(
            name: "SwiftDBAITests",
            dependencies: ["SwiftDBAI"]
        ),
        .testTarget(
            name: "SwiftDBAIMCPTests",
            dependencies: ["SwiftDBAIMCP"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
