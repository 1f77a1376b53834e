// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A separate package so the benchmark builds in release without adding a target to the main
// package. The main package is a path dependency; its identity is its directory's name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

let package = Package(
    name: "SweepBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "SweepBenchmark",
            dependencies: [.product(name: "LifeSignalBackend", package: root.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
