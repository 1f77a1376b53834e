import Foundation
import LifeSignalBackend
import LifeSignalDomain
import Logging
import NIOCore
import PostgresNIO

/// PostgreSQL through a pool of postgres-nio connections.
public final class PostgresDatabase: Database {
    public let dialect = SQLDialect.postgres
    public let location: String
    /// The pools: ``PostgresPools/Clients/main`` for everything, and connections logged in
    /// as `anon` for reads by callers without a user (``readPageAsAnonymous(claims:statement:)``).
    /// Requests lease through ``withLease(_:_:)``, which fails fast while the database is away.
    let pools: PostgresPools
    /// Whether PostgreSQL answers, and the checks that tell.
    let availability: DatabaseAvailability
    /// For connections outside the pool (a `LISTEN` holds its connection for good).
    let connectionConfiguration: PostgresConnection.Configuration
    /// The `request.jwt.claims` each anonymous connection has, so they are set only on change.
    let anonymousClaims: ConnectionSettings
    /// The page statements each pooled connection has prepared.
    let preparedStatements: PreparedStatements
    /// The one timer behind every lease's deadlines.
    let leaseClock = LeaseClock(loop: PostgresConnection.defaultEventLoopGroup.any())
    let logger: Logger

    /// Connects to `postgres://user:password@host:port/database` (TLS off, as for a local or
    /// private-network server) and checks the connection before returning, so a wrong URL fails
    /// here with a clear message rather than on the first request.
    ///
    /// - Parameter unavailableAfter: the longest a request waits for a connection before it
    ///   fails with ``DatabaseError/unavailable(_:)`` (see ``DatabaseAvailability``).
    /// - Parameter idleTimeout: how long an unused pooled connection stays open (postgres-nio's
    ///   default, 60 s); a process with many databases (the tests) keeps fewer open with less.
    public init(
        url: String, maximumConnections: Int = 20, unavailableAfter: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(60)
    ) async throws {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw DatabaseError.configuration("cannot parse PostgreSQL URL (expected postgres://user:password@host:port/database)")
        }
        let database = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432,
            username: components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres",
            password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding },
            database: database.isEmpty ? nil : database, tls: .disable)
        self.connectionConfiguration = PostgresConnection.Configuration(
            host: configuration.host ?? host, port: configuration.port ?? 5432, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectionIdleTimeout = idleTimeout
        configuration.options.connectTimeout = .seconds(5)
        var logger = Logger(label: "lifesignal.postgres")
        logger.logLevel = .error
        self.logger = logger
        // The role and time zone are startup settings, as if each connection had begun with
        // `SET ROLE anon; SET TIME ZONE 'UTC'`: reads on it need no wrapper to switch them.
        var anonymous = configuration
        anonymous.options.additionalStartupParameters = [("role", DatabaseRole.anon.rawValue), ("TimeZone", "UTC")]
        // Few: the reads are short, and PostgreSQL on a small machine serves more of them with
        // four busy backends than with ten (pgbench on 2 cores: 5,050 tps at 4 clients, 4,500
        // at 10, 3,900 at 64).
        anonymous.options.maximumConnections = min(4, maximumConnections)
        // Signed-in people's reads, the same way, logged in as `authenticated`.
        var authenticated = anonymous
        authenticated.options.additionalStartupParameters = [("role", DatabaseRole.authenticated.rawValue), ("TimeZone", "UTC")]
        let (main, anonymousMain, authenticatedMain, poolLogger) = (configuration, anonymous, authenticated, logger)
        let pools = PostgresPools {
            let client = PostgresClient(configuration: main, backgroundLogger: poolLogger)
            let anonymousClient = PostgresClient(configuration: anonymousMain, backgroundLogger: poolLogger)
            let authenticatedClient = PostgresClient(configuration: authenticatedMain, backgroundLogger: poolLogger)
            return .init(
                main: client, anonymous: anonymousClient, authenticated: authenticatedClient,
                runs: [Task { await client.run() }, Task { await anonymousClient.run() }, Task { await authenticatedClient.run() }])
        }
        self.pools = pools
        let anonymousClaims = ConnectionSettings()
        self.anonymousClaims = anonymousClaims
        let preparedStatements = PreparedStatements()
        self.preparedStatements = preparedStatements
        let direct = connectionConfiguration
        self.availability = DatabaseAvailability(
            leaseTimeout: unavailableAfter, logger: logger,
            probe: { timeout in await Self.probe(direct, timeout: timeout, logger: poolLogger) },
            onRecovered: {
                pools.replace()
                anonymousClaims.removeAll()
                preparedStatements.removeAll()
            })
        self.location = "postgres://\(host):\(components.port ?? 5432)/\(database)"
        do {
            _ = try await transaction { try await $0.query("SELECT 1") }
        } catch {
            availability.stop()
            pools.close()
            throw DatabaseError.unavailable("cannot reach PostgreSQL at \(location): \(error)")
        }
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let logger = self.logger
        return try await withLease { connection in
            let wrapped = PostgresTransactionConnection(connection: connection, logger: logger)
            _ = try await wrapped.query("BEGIN")
            do {
                let result = try await body(wrapped)
                _ = try await wrapped.query("COMMIT")
                return result
            } catch {
                _ = try? await wrapped.query("ROLLBACK")
                throw error
            }
        }
    }

    /// One statement on its own is a transaction already: sent without `BEGIN` and `COMMIT`,
    /// it takes one round trip instead of three (a session check before every function call
    /// was three).
    @discardableResult
    public func query(_ sql: SQL) async throws -> [SQLRow] {
        let logger = self.logger
        return try await withLease { connection in
            try await PostgresTransactionConnection(connection: connection, logger: logger).query(sql)
        }
    }

    /// Runs one statement outside any transaction, for the few that refuse to run inside one
    /// (`CREATE DATABASE`, `VACUUM`).
    public func executeOutsideTransaction(_ statement: String) async throws {
        let logger = self.logger
        try await withLease { connection in
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    public func close() async throws {
        availability.stop()
        pools.close()
    }
}

struct PostgresTransactionConnection: SQLConnection {
    let connection: PostgresConnection
    let logger: Logger
    var dialect: SQLDialect { .postgres }

    /// PostgreSQL writes the JSON itself (`json_agg`); `render` is not needed.
    func renderedArray(_ select: SQL, render: @Sendable ([SQLRow]) -> String) async throws -> (body: String, count: Int) {
        let wrapped = SQL.raw("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n FROM (") + select + SQL.raw(") _r")
        let row = try await first(wrapped)
        return (try row?.string("body") ?? "[]", try row?.int("n") ?? 0)
    }

    func query(_ sql: SQL) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: sql.bindings.count)
        for value in sql.bindings { Self.bind(value, into: &bindings) }
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql.text, binds: bindings), logger: logger)
            var result: [SQLRow] = []
            for try await row in rows {
                var names: [String] = []
                var values: [SQLValue] = []
                names.reserveCapacity(row.count)
                values.reserveCapacity(row.count)
                for cell in row {
                    names.append(cell.columnName)
                    values.append(try Self.value(cell))
                }
                result.append(SQLRow(columns: names, values: values))
            }
            return result
        } catch let error as PSQLError {
            throw Self.map(error)
        }
    }

    /// Seconds from 1970 that postgres-nio can encode (under 9.2e12 microseconds from 2000).
    static let encodableSeconds: TimeInterval = 9.0e12

    static func bind(_ value: SQLValue, into bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .bool(let flag): bindings.append(flag)
        case .int(let number): bindings.append(number)
        case .double(let number): bindings.append(number)
        case .text(let text): bindings.append(text)
        case .uuid(let uuid): bindings.append(uuid)
        case .timestamp(let date):
            // postgres-nio encodes a Date as Int64 microseconds since 2000, which traps past
            // about ±292,000 years; PostgreSQL's own range ends at 294276 AD, so a date that far
            // out can only mean "never" (or "always").
            if abs(date.timeIntervalSince1970) < Self.encodableSeconds {
                bindings.append(date)
            } else {
                bindings.append(UntypedLiteral(text: date.timeIntervalSince1970 > 0 ? "infinity" : "-infinity"))
            }
        case .json(let text): bindings.append(JSONBText(text: text))
        case .literal(let text): bindings.append(UntypedLiteral(text: text))
        case .bytes(let data): bindings.append(ByteBuffer(bytes: data))
        }
    }

    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .bool: return .bool(try cell.decode(Bool.self))
        case .int2, .int4, .int8: return .int(try cell.decode(Int64.self))
        case .float4, .float8: return .double(try cell.decode(Double.self))
        case .uuid: return .uuid(try cell.decode(UUID.self))
        case .timestamptz, .timestamp: return .timestamp(try cell.decode(Date.self))
        case .json, .jsonb: return .json(try cell.decode(String.self))
        case .date:
            // A calendar date, printed as PostgreSQL prints it.
            return .text(String(Timestamp.format(try cell.decode(Date.self)).prefix(10)))
        case .time:
            guard var bytes = cell.bytes, let micros = bytes.readInteger(as: Int64.self) else { return .null }
            let seconds = micros / 1_000_000
            let fraction = micros % 1_000_000
            var text = String(format: "%02lld:%02lld:%02lld", seconds / 3600, (seconds % 3600) / 60, seconds % 60)
            if fraction > 0 { text += String(format: ".%06lld", fraction) }
            return .text(text)
        case .numeric: return .text(try cell.decode(Decimal.self).description)
        case .bytea: return .bytes(Data((try cell.decode(ByteBuffer.self)).readableBytesView))
        case .textArray, .varcharArray: return .json(try PostgresDatabase.textArrayJSON(cell))
        default:
            if let text = try? cell.decode(String.self) { return .text(text) }
            if cell.format == .text, let bytes = cell.bytes { return .text(String(buffer: bytes)) }
            throw DatabaseError.decoding("column \"\(cell.columnName)\" has unsupported type \(cell.dataType)")
        }
    }

    static func map(_ error: PSQLError) -> DatabaseError {
        guard let info = error.serverInfo, let state = info[.sqlState] else {
            return .unavailable(String(reflecting: error.code))
        }
        // A restart's "terminating connection" and its kin: the statement was fine, the
        // server went away, so it is the one kind of failure every route answers 503.
        if DatabaseError.isConnectionState(state) { return .unavailable("\(info[.message] ?? "connection lost") (\(state))") }
        return .statement(sqlState: state, message: info[.message] ?? "", detail: info[.detail], hint: info[.hint])
    }
}

/// Text left for PostgreSQL to type from context, as PostgREST sends filter values.
struct UntypedLiteral: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    let text: String
    static var psqlType: PostgresDataType { PostgresDataType(0) }
    static var psqlFormat: PostgresFormat { .text }
    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}

/// JSON text bound as `jsonb` (binary format: a version byte, then the text).
struct JSONBText: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    let text: String
    static var psqlType: PostgresDataType { .jsonb }
    static var psqlFormat: PostgresFormat { .binary }
    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(UInt8(1))
        byteBuffer.writeString(text)
    }
}
