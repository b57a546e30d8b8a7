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
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
        .executableTarget(
            name: "dbai-bench",
            dependencies: ["SwiftDBAI", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/dbai-bench"
        ),
        .testTarget(
            name: "SwiftDBAITests",
            dependencies: ["SwiftDBAI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
