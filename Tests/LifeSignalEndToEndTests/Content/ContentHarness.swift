import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalTestSupport
import SupabaseREST

/// Where a content contract test runs: the same `ContentClient` promises, on each adapter.
enum ContentBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case local = "local, SQLite"
    case supabaseSQLite = "supabase over HTTP, SQLite"
    case supabasePostgres = "supabase over HTTP, PostgreSQL"

    var description: String { rawValue }
    var engine: Engine { self == .supabasePostgres ? .postgres : .sqlite }
}

/// Two signed-in people (Alice, Bob) and a visitor who never signed in, each with their own
/// `ContentClient` on one backend.
struct ContentHarness: Sendable {
    static let alicePhone = "+15550002001"
    static let bobPhone = "+15550002002"

    let test: TestBackend
    let server: TestServer?
    let alice: ContentClient
    let bob: ContentClient
    let visitor: ContentClient
    let aliceID: UUID

    static func start(_ backend: ContentBackend) async throws -> ContentHarness {
        let test = try await TestDatabases.backend(
            backend.engine, testOTPs: try TestOTPs(parsing: "\(alicePhone)=111111,\(bobPhone)=222222"))
        switch backend {
        case .local:
            let (alice, aliceID) = try await local(test, phone: alicePhone, code: "111111")
            let (bob, _) = try await local(test, phone: bobPhone, code: "222222")
            return ContentHarness(test: test, server: nil, alice: alice, bob: bob,
                                  visitor: LocalAdapters(backend: test.backend).contentClient, aliceID: aliceID)
        case .supabaseSQLite, .supabasePostgres:
            let server = try await TestServer.start(test.backend)
            let (alice, aliceID) = try await supabase(server, phone: alicePhone, code: "111111")
            let (bob, _) = try await supabase(server, phone: bobPhone, code: "222222")
            let visitor = SupabaseAdapters(client: makeClient(server)).contentClient
            return ContentHarness(test: test, server: server, alice: alice, bob: bob, visitor: visitor, aliceID: aliceID)
        }
    }

    func stop() async {
        await server?.stop()
        try? await test.backend.close()
    }

    private static func local(_ test: TestBackend, phone: String, code: String) async throws -> (ContentClient, UUID) {
        let adapters = LocalAdapters(backend: test.backend)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        return (adapters.contentClient, session.userID.rawValue)
    }

    private static func makeClient(_ server: TestServer) -> SupabaseClient {
        SupabaseClient(supabaseURL: server.baseURL, supabaseKey: server.anonKey,
                       options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage())))
    }

    private static func supabase(_ server: TestServer, phone: String, code: String) async throws -> (ContentClient, UUID) {
        let client = makeClient(server)
        let adapters = SupabaseAdapters(client: client)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        return (adapters.contentClient, session.userID.rawValue)
    }

    /// The stored row of a record, deleted or not, read behind the adapters' backs.
    func storedRow(_ table: ContentTable, id: UUID) async throws -> SQLRow? {
        try await test.backend.database.query(SQL.raw("SELECT * FROM \(table.rawValue) WHERE id = ") + "\(SQLValue.uuid(id))").first
    }
}
