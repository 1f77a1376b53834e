// swift-tools-version: 6.1
import PackageDescription

/// LifeSignal: a personal-safety check-in system. The targets follow the layer table of
/// `docs/architecture.md`; an arrow only ever points down that table.
let package = Package(
    name: "LifeSignal",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "lifesignal", targets: ["lifesignal"]),
        .library(name: "LifeSignalDomain", targets: ["LifeSignalDomain"]),
        .library(name: "LifeSignalFunctions", targets: ["LifeSignalFunctions"]),
        .library(name: "LifeSignalClients", targets: ["LifeSignalClients"]),
        .library(name: "LifeSignalFeatures", targets: ["LifeSignalFeatures"]),
        .library(name: "SupabaseREST", targets: ["SupabaseREST"]),
        .library(name: "FirebaseREST", targets: ["FirebaseREST"]),
        .library(name: "LifeSignalAdapters", targets: ["LifeSignalAdapters"]),
        .library(name: "LifeSignalLocalAdapters", targets: ["LifeSignalLocalAdapters"]),
        .library(name: "LifeSignalBackend", targets: ["LifeSignalBackend"]),
        .library(name: "LifeSignalSQLite", targets: ["LifeSignalSQLite"]),
        .library(name: "LifeSignalPostgres", targets: ["LifeSignalPostgres"]),
        .library(name: "LifeSignalServer", targets: ["LifeSignalServer"]),
        .library(name: "LifeSignalDelivery", targets: ["LifeSignalDelivery"]),
        .library(name: "LifeSignalWeb", targets: ["LifeSignalWeb"]),
        .library(name: "QREncoder", targets: ["QREncoder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // MARK: Domain — value types and pure rules.
        // Instants as text (RFC 3339): one reader and writer for every layer, wire clients included.
        .target(name: "RFC3339"),
        .testTarget(name: "RFC3339Tests", dependencies: ["RFC3339"]),
        .target(name: "LifeSignalDomain", dependencies: ["RFC3339"]),
        .testTarget(name: "LifeSignalDomainTests", dependencies: ["LifeSignalDomain"]),
        // QR codes (ISO/IEC 18004, byte mode), drawn as SVG or terminal text: no dependencies.
        .target(name: "QREncoder"),
        .testTarget(name: "QREncoderTests", dependencies: ["QREncoder", "LifeSignalTestSupport"]),

        // MARK: The cloud functions' contract: every function's name, request and reply,
        // shared by the backend that serves them and every adapter that calls them.
        .target(name: "LifeSignalFunctions", dependencies: ["LifeSignalDomain"]),
        .testTarget(name: "LifeSignalFunctionsTests", dependencies: ["LifeSignalFunctions"]),

        // MARK: Middleware clients.
        .target(
            name: "LifeSignalClients",
            dependencies: [
                "LifeSignalDomain",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "DependenciesMacros", package: "swift-dependencies"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ]
        ),
        .testTarget(
            name: "LifeSignalClientsTests",
            dependencies: [
                "LifeSignalClients",
                // Without it, an issue reported through IssueReporting (an unimplemented
                // dependency) is only printed on Linux and does not fail the test.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),

        // MARK: Features (reducers) and their runtime.
        .target(
            name: "LifeSignalFeatures",
            dependencies: [
                "LifeSignalDomain",
                "LifeSignalClients",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(name: "LifeSignalFeaturesTests", dependencies: ["LifeSignalFeatures"]),

        // MARK: Wire clients (know nothing of LifeSignal).
        // The one transport both wire clients share: request/response, pipeline with retries,
        // transport errors, the URLSession transport (Linux-safe cancellation).
        .target(name: "HTTPTransportCore"),
        .testTarget(name: "HTTPTransportCoreTests", dependencies: ["HTTPTransportCore"]),
        .target(
            name: "SupabaseREST",
            dependencies: [
                "HTTPTransportCore", "RFC3339",
                // Realtime's socket: URLSessionWebSocketTask fails at run time on Linux
                // (Debian's libcurl has no WebSocket support).
                .product(name: "WSClient", package: "swift-websocket"),
                // What `WSClientTransport` imports itself, declared rather than borrowed from WSClient.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(name: "SupabaseRESTTests", dependencies: ["SupabaseREST", "RFC3339"]),
        // Seed 004's Swift snippets, compiled against SupabaseREST and run against the server.
        .testTarget(name: "Seed004SnippetTests", dependencies: ["SupabaseREST", "LifeSignalTestSupport"]),
        .target(name: "FirebaseREST", dependencies: ["HTTPTransportCore", "RFC3339"]),
        .testTarget(name: "FirebaseRESTTests", dependencies: ["FirebaseREST", "RFC3339"]),

        // MARK: Delivery channels: each provider's own wire protocol (issue 19), no LifeSignal types.
        .target(
            name: "LifeSignalDelivery",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // APNs: HTTP/2 with a token-based (ES256) provider JWT.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                "HTTPTransportCore",
            ]
        ),
        .testTarget(
            name: "LifeSignalDeliveryTests",
            dependencies: [
                "LifeSignalDelivery", "LifeSignalTestSupport", .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The APNs tests make a P-256 signing key of their own.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // MARK: Backend core: rules, migrations and the `Database` protocol; the engines are
        // targets of their own, and the rules know neither.
        .target(
            name: "LifeSignalBackend",
            dependencies: [
                "LifeSignalDomain", "LifeSignalFunctions",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // Access tokens (HS256) and Firebase ID tokens (RS256), and fetching Firebase's keys.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The embedded engine: one SQLite file.
        .target(
            name: "LifeSignalSQLite",
            dependencies: [
                "LifeSignalBackend", "LifeSignalDomain",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The PostgreSQL engine, apart, so an app that embeds the backend links SQLite only.
        .target(
            name: "LifeSignalPostgres",
            dependencies: [
                "LifeSignalBackend", "LifeSignalDomain",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LifeSignalBackendTests",
            dependencies: [
                "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalPostgres", "LifeSignalFunctions", "LifeSignalTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),

        // MARK: Adapters: fill the clients from a backend. Client-side: never the backend, the
        // server, PostgresNIO or Hummingbird (scripts/check-dependencies checks).
        .target(
            name: "LifeSignalAdapters",
            dependencies: [
                "LifeSignalDomain", "LifeSignalClients", "SupabaseREST", "FirebaseREST", "LifeSignalFunctions",
                .product(name: "Dependencies", package: "swift-dependencies"),
                // The service-account assertion (RS256), as every JWT goes through jwt-kit.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The embedded backend as an adapter, for an app that wants to run offline.
        .target(
            name: "LifeSignalLocalAdapters",
            dependencies: [
                "LifeSignalAdapters", "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalFunctions", "LifeSignalDomain", "LifeSignalClients",
                "FirebaseREST",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LifeSignalAdaptersTests",
            dependencies: [
                "LifeSignalAdapters", "LifeSignalLocalAdapters", "LifeSignalTestSupport", "FirebaseREST", "LifeSignalBackend",
                "LifeSignalFunctions", "SupabaseREST",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // MARK: Web: the pages a person opens in a browser (the web app, responder and
        // invitation links), rendered on the server from Mustache templates.
        .target(
            name: "LifeSignalWeb",
            dependencies: [
                "LifeSignalBackend", "LifeSignalDomain", "RFC3339", "QREncoder",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        .testTarget(
            name: "LifeSignalWebTests",
            dependencies: ["LifeSignalWeb", "LifeSignalTestSupport", "LifeSignalBackend", "LifeSignalDomain", "QREncoder"]
        ),

        // MARK: Server: the Supabase-compatible HTTP surface.
        .target(
            name: "LifeSignalServer",
            dependencies: [
                "LifeSignalBackend", "LifeSignalFunctions", "LifeSignalDomain", "LifeSignalDelivery", "LifeSignalWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                // Web Push topics are hashes of what they collapse.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LifeSignalServerTests",
            dependencies: [
                "LifeSignalServer", "LifeSignalTestSupport", "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalPostgres", "LifeSignalFunctions",
                "LifeSignalDelivery",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // MARK: Command line.
        .executableTarget(
            name: "lifesignal",
            dependencies: [
                "LifeSignalDomain", "LifeSignalClients", "LifeSignalFeatures", "LifeSignalAdapters", "LifeSignalLocalAdapters",
                "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalPostgres", "LifeSignalFunctions", "LifeSignalServer", "SupabaseREST",
                "LifeSignalDelivery", "RFC3339", "QREncoder",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Test support and the end-to-end suite.
        .target(
            name: "LifeSignalTestSupport",
            dependencies: [
                "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalPostgres", "LifeSignalFunctions", "LifeSignalServer", "LifeSignalDomain",
                .product(name: "Hummingbird", package: "hummingbird"),
                // A Firebase stand-in's signing keys and ID tokens (FirebaseTokenIssuer).
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // NIOHTTPTestClient: a load test's client that cannot stall an upload.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/LifeSignalTestSupport"
        ),
        .testTarget(
            name: "LifeSignalEndToEndTests",
            dependencies: [
                "LifeSignalFeatures", "LifeSignalAdapters", "LifeSignalLocalAdapters", "LifeSignalServer", "LifeSignalTestSupport",
                "SupabaseREST", "LifeSignalBackend", "LifeSignalSQLite", "LifeSignalPostgres", "LifeSignalFunctions", "LifeSignalClients",
                "LifeSignalDomain",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
