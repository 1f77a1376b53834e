import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The schema cache follows the database when told to: `NOTIFY pgrst, 'reload schema'` on
/// PostgreSQL, a signal on either engine.
@Suite("Schema reload")
struct SchemaReloadTests {
    /// Polls (up to 30 s: a bound, not a speed check) until `path` answers `status` (the reload
    /// happens on another task).
    static func eventually(_ server: TestServer, _ path: String, status: Int) async throws -> Int {
        var last = 0
        for _ in 0..<600 {
            last = try await Self.asService(server, path).status
            if last == status { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// `GET path` with the service key, which every table created in these tests is granted to.
    static func asService(_ server: TestServer, _ path: String) async throws -> TestServer.Reply {
        try await server.request("GET", path, apiKey: .some(server.serviceKey), bearer: server.serviceKey)
    }

    static let listener = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%pgrst%'"

    /// Waits (up to 12 s: a bound, not a speed check) until the server's schema reloader is listening.
    static func listening(_ database: any Database) async throws -> Bool {
        for _ in 0..<600 {
            if try await !database.query(SQL.raw(listener)).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    static func hasDefaultDisposition(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        #if canImport(Glibc)
            return current.__sigaction_handler.sa_handler == nil
        #else
            return current.__sigaction_u.__sa_handler == nil
        #endif
    }

    @Test("a table created after start is served once PostgreSQL sends NOTIFY pgrst")
    func notify() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        // A NOTIFY sent before the server's LISTEN is in place is lost, as on PostgREST.
        #expect(try await Self.listening(test.backend.database), "the server never ran LISTEN pgrst")
        try await test.backend.database.query("CREATE TABLE gadgets (id integer PRIMARY KEY, name text NOT NULL)")
        try await test.backend.database.query("GRANT ALL ON gadgets TO service_role")
        try await test.backend.database.query("INSERT INTO gadgets VALUES (1, 'lamp')")
        let before = try await Self.asService(server, "/rest/v1/gadgets")
        #expect(before.status == 404)
        #expect(before.json?["code"] as? String == "PGRST205")
        try await test.backend.database.query("NOTIFY pgrst, 'reload schema'")
        #expect(try await Self.eventually(server, "/rest/v1/gadgets?select=name", status: 200) == 200)
    }

    @Test("a read planned before a reload is planned again after it: `select=*` shows a column added meanwhile")
    func planCacheFollowsReload() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let database = test.backend.database
        #expect(try await Self.listening(database), "the server never ran LISTEN pgrst")
        try await database.query("CREATE TABLE widgets (id integer PRIMARY KEY)")
        try await database.query("GRANT ALL ON widgets TO service_role")
        try await database.query("INSERT INTO widgets VALUES (1)")
        try await database.query("NOTIFY pgrst, 'reload schema'")
        #expect(try await Self.eventually(server, "/rest/v1/widgets?select=*", status: 200) == 200)
        // Planned (and kept) with the one column.
        let before = try await Self.asService(server, "/rest/v1/widgets?select=*")
        #expect(before.jsonArray?.first?.keys.sorted() == ["id"], "\(before.text)")
        try await database.query("ALTER TABLE widgets ADD COLUMN colour text NOT NULL DEFAULT 'red'")
        try await database.query("NOTIFY pgrst, 'reload schema'")
        var keys: [String] = []
        for _ in 0..<600 where keys != ["colour", "id"] {
            let reply = try await Self.asService(server, "/rest/v1/widgets?select=*")
            keys = reply.jsonArray?.first?.keys.sorted() ?? []
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(keys == ["colour", "id"], "the plan made before the reload was still served")
    }

    @Test("after the LISTEN connection is lost, the reconnect re-reads the schema (a NOTIFY may have been missed)")
    func reconnect() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let database = test.backend.database
        // Wait until the reloader's LISTEN is in place, then change the schema without NOTIFY.
        #expect(try await Self.listening(database), "the server never ran LISTEN pgrst")
        try await database.query("CREATE TABLE gizmos (id integer PRIMARY KEY)")
        try await database.query("GRANT ALL ON gizmos TO service_role")
        #expect(try await Self.asService(server, "/rest/v1/gizmos").status == 404)
        try await database.query(SQL.raw("SELECT pg_terminate_backend(pid) AS done FROM (\(Self.listener)) AS listeners"))
        #expect(try await Self.eventually(server, "/rest/v1/gizmos?select=id", status: 200) == 200)
    }

    @Test("a signal reloads the cache on SQLite")
    func reloadOnSignal() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        // SIGUSR2 rather than serve's SIGHUP: nothing else in the test process traps it.
        let server = try await TestServer.start(test.backend, reloadSignal: .sigusr2)
        defer { Task { await server.stop() } }
        try await test.backend.database.query("CREATE TABLE gadgets (id integer PRIMARY KEY, name text NOT NULL)")
        #expect(try await Self.asService(server, "/rest/v1/gadgets").status == 404)
        // The server traps the signal asynchronously; SIGUSR2's default action ends the
        // process, so wait until the disposition is no longer the default before sending.
        for _ in 0..<3000 where Self.hasDefaultDisposition(SIGUSR2) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Self.hasDefaultDisposition(SIGUSR2))
        var status = 0
        for _ in 0..<600 where status != 200 {
            kill(getpid(), SIGUSR2)
            try await Task.sleep(for: .milliseconds(50))
            status = try await Self.asService(server, "/rest/v1/gadgets?select=name").status
        }
        #expect(status == 200)
    }
}
