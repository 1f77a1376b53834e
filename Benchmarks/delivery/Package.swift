// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A separate package so the benchmark builds in release without adding a target to the main
// package. The main package is a path dependency; its identity is its directory's name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

let package = Package(
    name: "DeliveryBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "DeliveryBenchmark",
            dependencies: [
                .product(name: "LifeSignalBackend", package: root.lastPathComponent),
                .product(name: "LifeSignalDomain", package: root.lastPathComponent),
                .product(name: "LifeSignalServer", package: root.lastPathComponent),
                // The provider clients `serve` builds its senders from (Twilio, SMTP, APNs).
                .product(name: "LifeSignalDelivery", package: root.lastPathComponent),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
