import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalTestSupport
import SupabaseREST

/// Alice and Bob signed in on one backend with their ``DocumentsClient``s, and a visitor who
/// never signed in: the people of the document contract.
struct DocumentHarness: Sendable {
    let test: TestBackend
    let server: TestServer?
    let alice: LifeSignalClients.DocumentsClient
    let bob: LifeSignalClients.DocumentsClient
    let visitor: LifeSignalClients.DocumentsClient
    let aliceAuth: LifeSignalClients.AuthClient
    /// Alice's and Bob's ids as they appear in paths (`users/<id>/…`).
    let aliceID: String
    let bobID: String

    static func start(_ backend: AdapterBackend) async throws -> DocumentHarness {
        let test = try await TestDatabases.backend(
            backend.engine,
            testOTPs: try TestOTPs(parsing: "\(AdapterHarness.alicePhone)=111111,\(AdapterHarness.bobPhone)=222222"))
        var server: TestServer?
        let make: @Sendable () -> (LifeSignalClients.DocumentsClient, LifeSignalClients.AuthClient)
        switch backend {
        case .local:
            make = {
                let adapters = LocalAdapters(backend: test.backend)
                return (adapters.documentsClient, adapters.authClient)
            }
        case .supabaseSQLite, .supabasePostgres:
            let started = try await TestServer.start(test.backend)
            server = started
            make = {
                let adapters = SupabaseAdapters(
                    client: SupabaseClient(
                        supabaseURL: started.baseURL, supabaseKey: started.anonKey,
                        options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()))))
                return (adapters.documentsClient, adapters.authClient)
            }
        case .firebase:
            make = {
                let adapters = AdapterHarness.firebaseAdapters(test.backend)
                return (adapters.documentsClient, adapters.authClient)
            }
        }
        func signIn(_ phone: String, _ code: String) async throws -> (LifeSignalClients.DocumentsClient, LifeSignalClients.AuthClient, String) {
            let (storage, auth) = make()
            try await auth.sendCode(try PhoneNumber(phone))
            let session = try await auth.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
            return (storage, auth, session.userID.description)
        }
        let alice = try await signIn(AdapterHarness.alicePhone, "111111")
        let bob = try await signIn(AdapterHarness.bobPhone, "222222")
        return DocumentHarness(
            test: test, server: server, alice: alice.0, bob: bob.0, visitor: make().0, aliceAuth: alice.1,
            aliceID: alice.2, bobID: bob.2)
    }

    func stop() async {
        await server?.stop()
        try? await test.backend.close()
    }

    /// A path under Alice's own `users/<id>`.
    func alicePath(_ rest: String) throws -> DocumentPath { try DocumentPath("users/\(aliceID)/\(rest)") }

    /// How many documents are stored, read behind the adapters' backs.
    func storedCount() async throws -> Int { try await test.count("documents") }

    /// The stored row's data, as the table holds it.
    func storedJSON(_ path: DocumentPath) async throws -> String? {
        try await test.backend.database.query("SELECT data FROM documents WHERE path = \(path.rawValue)").first?.optionalString("data")
    }
}

/// The seed's reading of a failure.
func storageError(_ body: () async throws -> Void) async -> DocumentStorageError? {
    do {
        try await body()
        return nil
    } catch {
        return DocumentStorageError(error)
    }
}
