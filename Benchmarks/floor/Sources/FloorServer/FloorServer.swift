import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One route, `GET /rest/v1/locations`, one statement through a `PostgresClient` pool: the
/// most a server on Hummingbird and postgres-nio can do for issue 21's anonymous read, with no
/// logic of its own (no keys, no parsing, no policies, no metrics). With `--source sqlite` the
/// same for sqlite-nio, and with `--source static` the HTTP stack alone, answering a fixed page.
@main
struct FloorServer {
    static func main() async {
        let options: Options
        do {
            options = try Options.parse(CommandLine.arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }
        // As `lifesignal serve` does: from the main thread, before other work is queued.
        let installed =
            switch options.executor {
            case .swiftPool: true
            case .eventLoops: EventLoopConcurrencyExecutor.install()
            case .eventLoopsIsolated: NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            }
        guard installed else {
            FileHandle.standardError.write(Data("could not install NIO's event loops as the global executor\n".utf8))
            exit(1)
        }
        do {
            try await serve(options)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    static func serve(_ options: Options) async throws {
        var logger = Logger(label: "floor")
        logger.logLevel = .error
        let router = Router()
        var pool: PostgresClient?
        switch options.source {
        case .postgres:
            let client = PostgresClient(configuration: try configuration(options), backgroundLogger: logger)
            let read: @Sendable (PostgresClient) async throws -> ByteBuffer =
                switch options.statement {
                case .unnamed: LocationsPage.readUnnamed
                case .prepared: LocationsPage.readPrepared
                }
            router.get("/rest/v1/locations") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: try await read(client)))
            }
            pool = client
        case .sqlite:
            let page = try await SQLitePage(path: options.path, sql: options.sql, count: options.readers)
            router.get("/rest/v1/locations") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: try await page.read()))
            }
        case .static:
            let body = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: options.path)))
            router.get("/rest/v1/locations") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
            }
        }
        var app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: options.port)), logger: logger)
        if let pool { app.addServices(pool) }
        print(
            "floor listening on 127.0.0.1:\(options.port) source=\(options.source) statement=\(options.statement) pool=\(options.pool)"
                + " readers=\(options.readers) executor=\(options.executor)")
        try await app.runService()
    }

    static func configuration(_ options: Options) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: options.database), let host = url.host, !host.isEmpty else {
            throw Options.Invalid(description: "cannot parse \(options.database) (postgres://user@host:port/database)")
        }
        let database = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: database.isEmpty ? nil : database, tls: .disable)
        configuration.options.maximumConnections = options.pool
        return configuration
    }
}
