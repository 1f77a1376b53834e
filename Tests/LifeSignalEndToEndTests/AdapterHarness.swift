import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// Where a contract test runs: the same client promises, on each adapter.
enum AdapterBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case local = "local, SQLite"
    case supabaseSQLite = "supabase over HTTP, SQLite"
    case supabasePostgres = "supabase over HTTP, PostgreSQL"
    case firebase = "firebase callables, replayed over SQLite"

    /// The backends every capability runs on. Firebase is left out because it does not serve
    /// every capability (avatars go to its own Storage, tested in `Firebase/`); suites it
    /// passes use ``withFirebase``.
    static let allCases: [AdapterBackend] = [.local, .supabaseSQLite, .supabasePostgres]
    /// ``allCases`` plus Firebase (`Firebase/FirebaseHarness.swift`).
    static let withFirebase: [AdapterBackend] = allCases + [.firebase]

    var description: String { rawValue }
    var engine: Engine { self == .supabasePostgres ? .postgres : .sqlite }
}

/// Two signed-in people (Alice, Bob) and a visitor who never signed in, each with their own
/// clients on one backend.
struct AdapterHarness: Sendable {
    static let alicePhone = "+15550002001"
    static let bobPhone = "+15550002002"

    let test: TestBackend
    let server: TestServer?
    let alice: ContentClient
    let bob: ContentClient
    let visitor: ContentClient
    let aliceID: UUID
    let bobID: UUID
    let aliceContacts: ContactsClient
    let bobContacts: ContactsClient
    let visitorContacts: ContactsClient
    /// Every client of each person.
    let aliceClients: Person
    let bobClients: Person

    static func start(_ backend: AdapterBackend) async throws -> AdapterHarness {
        let test = try await TestDatabases.backend(
            backend.engine, testOTPs: try TestOTPs(parsing: "\(alicePhone)=111111,\(bobPhone)=222222"))
        switch backend {
        case .local:
            let alice = try await local(test, phone: alicePhone, code: "111111")
            let bob = try await local(test, phone: bobPhone, code: "222222")
            return AdapterHarness(
                test: test, server: nil, alice: alice.content, bob: bob.content,
                visitor: LocalAdapters(backend: test.backend).contentClient, aliceID: alice.id, bobID: bob.id,
                aliceContacts: alice.contacts, bobContacts: bob.contacts,
                visitorContacts: LocalAdapters(backend: test.backend).contactsClient,
                aliceClients: alice, bobClients: bob)
        case .supabaseSQLite, .supabasePostgres:
            let server = try await TestServer.start(test.backend)
            let alice = try await supabase(server, phone: alicePhone, code: "111111")
            let bob = try await supabase(server, phone: bobPhone, code: "222222")
            let visitor = SupabaseAdapters(client: makeClient(server))
            return AdapterHarness(
                test: test, server: server, alice: alice.content, bob: bob.content, visitor: visitor.contentClient,
                aliceID: alice.id, bobID: bob.id, aliceContacts: alice.contacts, bobContacts: bob.contacts,
                visitorContacts: visitor.contactsClient, aliceClients: alice, bobClients: bob)
        case .firebase:
            return try await startFirebase(test)
        }
    }

    /// Who reads drafts in the contract suites: Bob, an editor. The visitor reads published
    /// records only, on every adapter (docs/security.md, "Content"; `ContentPrivacyTests`).
    var draftReader: ContentClient { bob }

    /// Makes the person an editor as an operator would, with the service role. The
    /// in-process paths (`ContentService`) read the role from the account on every call, so
    /// no new sign-in is needed there.
    static func makeEditor(_ test: TestBackend, _ userID: UserID) async throws {
        let updated = try await test.backend.auth.updateAppMetadata(of: userID, merging: #"{"role":"editor"}"#)
        #expect(updated != nil, "no account \(userID) to make an editor")
    }

    func stop() async {
        await server?.stop()
        try? await test.backend.close()
    }

    /// One signed-in person's clients.
    struct Person {
        var id: UUID
        var content: ContentClient
        var contacts: ContactsClient
        var alerts: AlertClient
        var pings: PingClient
        var checkIns: CheckInClient
        var notifications: NotificationClient
        var user: UserClient
        var auth: LifeSignalClients.AuthClient
        var functions: CloudFunctionClient
        var files: FileStorageClient
    }

    private static func local(_ test: TestBackend, phone: String, code: String) async throws -> Person {
        let adapters = LocalAdapters(backend: test.backend)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        try await makeEditor(test, session.userID)
        return Person(
            id: session.userID.rawValue, content: adapters.contentClient, contacts: adapters.contactsClient,
            alerts: adapters.alertClient, pings: adapters.pingClient, checkIns: adapters.checkInClient,
            notifications: adapters.notificationClient, user: adapters.userClient, auth: adapters.authClient,
            functions: adapters.cloudFunctionClient, files: adapters.fileStorageClient)
    }

    private static func makeClient(_ server: TestServer) -> SupabaseClient {
        SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            // A 30 s Realtime limit: a bound against a hang, not a speed check.
            options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()), realtime: .init(timeoutInterval: .seconds(30))))
    }

    private static func supabase(_ server: TestServer, phone: String, code: String) async throws -> Person {
        let client = makeClient(server)
        let adapters = SupabaseAdapters(client: client)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let first = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        // Alice and Bob edit content (seed 004 is the admin app's), which over PostgREST needs
        // an editor's token (docs/security.md, "Content"): the service role makes them editors
        // and they sign in again, as an operator would have them do.
        try await server.makeEditor(first.userID.rawValue.uuidString.lowercased())
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        return Person(
            id: session.userID.rawValue, content: adapters.contentClient, contacts: adapters.contactsClient,
            alerts: adapters.alertClient, pings: adapters.pingClient, checkIns: adapters.checkInClient,
            notifications: adapters.notificationClient, user: adapters.userClient, auth: adapters.authClient,
            functions: adapters.cloudFunctionClient, files: adapters.fileStorageClient)
    }

    /// The stored row of a record, deleted or not, read behind the adapters' backs.
    func storedRow(_ table: ContentTable, id: UUID) async throws -> SQLRow? {
        try await test.backend.database.query(SQL.raw("SELECT * FROM \(table.rawValue) WHERE id = ") + "\(SQLValue.uuid(id))").first
    }
}
