// swift-tools-version: 6.1
// The benchmarks, in a package of their own (as Hummingbird keeps its benchmarks), so that
// building or testing SwiftDBAI never builds them: `Scripts/bench-foundation` runs them.
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder: the clone's folder, whatever it is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "SwiftDBAIBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "dbai-bench",
            dependencies: [
                .product(name: "SwiftDBAI", package: root),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "dbai-bench"
        )
    ],
    swiftLanguageModes: [.v6]
)
