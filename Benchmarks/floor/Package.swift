// swift-tools-version: 6.1
import PackageDescription

// The thinnest server on LifeSignal's stack (issue 21): Hummingbird and postgres-nio at the
// versions the main package resolves, one route, one statement. A separate package so that it
// builds in release without touching the main package; it does not depend on it.
let package = Package(
    name: "FloorBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
    ],
    targets: [
        .executableTarget(
            name: "FloorServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ]
)
