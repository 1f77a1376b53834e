import FirebaseREST
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

/// Seed `003_…`'s mixed backend with Firebase in the mix: one sign-in, handed across.
@Suite("Adapter factory with Firebase")
struct FirebaseFactoryTests {
    static let phone = "+15550005005"

    static func backend() async throws -> TestBackend {
        try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=161803"))
    }

    @Test("Firebase serves every capability, content included; Firebase chosen but not configured says so")
    func everyCapability() async throws {
        let test = try await Self.backend()
        defer { Task { try? await test.backend.close() } }
        let factory = AdapterFactory(firebase: AdapterHarness.firebaseAdapters(test.backend))
        #expect(throws: DomainError.invalidArgument("auth is set to firebase, which is not configured")) {
            try AdapterFactory().clients(ProviderSelection(default: .firebase))
        }
        #expect(throws: DomainError.invalidArgument("content is set to local, which is not configured")) {
            try factory.clients(ProviderSelection(default: .firebase, overrides: [.content: .local]))
        }
        let clients = try factory.clients(ProviderSelection(default: .firebase))
        // Content through the content callables: anyone reads published records, an editor writes.
        #expect(try await clients.content.routes(ContentFilter()).isEmpty)
        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.content.saveRoute(.init(name: "Ridge Walk")) }
        try await clients.auth.sendCode(try PhoneNumber(Self.phone))
        let session = try await clients.auth.verifyCode(try PhoneNumber(Self.phone), try OneTimeCode("161803"))
        await #expect(throws: ContentRules.notEditor(.routes)) { _ = try await clients.content.saveRoute(.init(name: "Ridge Walk")) }
        try await AdapterHarness.makeEditor(test, session.userID)
        let route = try await clients.content.saveRoute(.init(name: "Ridge Walk", durationMinutes: 45, status: .published))
        #expect(route.createdBy == session.userID.rawValue)
        // A reader who is not signed in sees it, without its creator.
        #expect(try await LocalAdapters(backend: test.backend).contentClient.routes(ContentFilter()).map(\.id) == [route.id])
    }

    @Test("the emulator configuration addresses each emulator as the Local Emulator Suite serves it")
    func emulatorURLs() async throws {
        actor Recorder {
            var urls: [String] = []
            func record(_ url: URL) { urls.append(url.absoluteString) }
        }
        let requests = Recorder()
        let transport = FirebaseErrorMappingTests.CannedTransport { request in
            await requests.record(request.url)
            return FirebaseHTTPResponse(status: 200, body: Data(#"{"sessionInfo":"s","result":{"success":true,"count":0}}"#.utf8))
        }
        let adapters = try FirebaseAdapters.emulator(
            host: "localhost", projectID: "demo-lifesignal", options: FirebaseHTTPOptions(transport: transport))
        try await adapters.authClient.sendCode(try PhoneNumber(Self.phone))
        _ = try await adapters.notificationClient.markRead(nil)
        #expect(
            await requests.urls == [
                "http://localhost:9099/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=fake-api-key",
                "http://localhost:5001/demo-lifesignal/us-central1/mark-notifications-read",
            ])
        #expect(adapters.storage?.bucket == "demo-lifesignal.appspot.com")
    }

    @Test("sign-in on Firebase serves in-process content too; sign-out ends both")
    func firebaseAuthLocalContent() async throws {
        let test = try await Self.backend()
        defer { Task { try? await test.backend.close() } }
        let local = LocalAdapters(backend: test.backend)
        let firebase = AdapterHarness.firebaseAdapters(test.backend)
        let clients = try AdapterFactory(local: local, firebase: firebase)
            .clients(ProviderSelection(default: .firebase, overrides: [.content: .local]))

        try await clients.auth.sendCode(try PhoneNumber(Self.phone))
        let session = try await clients.auth.verifyCode(try PhoneNumber(Self.phone), try OneTimeCode("161803"))
        #expect(await local.sessions.session == session)
        try await AdapterHarness.makeEditor(test, session.userID)
        let route = try await clients.content.saveRoute(.init(name: "Ridge Walk", durationMinutes: 45))
        #expect(route.createdBy == session.userID.rawValue)
        // Checked in through a callable, read back in-process: one database, one person.
        let result = try await clients.checkIn.checkIn()
        #expect(try await local.checkInClient.status().lastCheckIn == result.checkedInAt)
        #expect(try await clients.user.profile().lastCheckIn == result.checkedInAt)

        try await clients.auth.signOut()
        #expect(await local.sessions.session == nil)
        #expect(await clients.auth.currentSession() == nil)
        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.checkIn.status() }
    }

    @Test("sign-in on Firebase is handed to the Supabase client serving contacts")
    func firebaseAuthSupabaseContacts() async throws {
        let test = try await Self.backend()
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let supabase = SupabaseAdapters(
            client: SupabaseClient(
                supabaseURL: server.baseURL, supabaseKey: server.anonKey,
                options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()))))
        let clients = try AdapterFactory(supabase: supabase, firebase: AdapterHarness.firebaseAdapters(test.backend))
            .clients(ProviderSelection(default: .firebase, overrides: [.contacts: .supabase, .content: .supabase]))

        try await clients.auth.sendCode(try PhoneNumber(Self.phone))
        let session = try await clients.auth.verifyCode(try PhoneNumber(Self.phone), try OneTimeCode("161803"))
        #expect(await supabase.authClient.currentSession()?.userID == session.userID)
        let code = try await clients.contacts.resetQRCode()
        #expect(try await clients.user.profile().qrCodeID == code.id)

        try await clients.auth.signOut()
        #expect(await supabase.authClient.currentSession() == nil)
        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.contacts.contacts() }
    }

    @Test("sign-in in-process is adopted by the Firebase adapters serving contacts")
    func localAuthFirebaseContacts() async throws {
        let test = try await Self.backend()
        defer { Task { try? await test.backend.close() } }
        let local = LocalAdapters(backend: test.backend)
        let firebase = AdapterHarness.firebaseAdapters(test.backend)
        let clients = try AdapterFactory(local: local, firebase: firebase)
            .clients(ProviderSelection(default: .local, overrides: [.contacts: .firebase, .notifications: .firebase]))

        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.contacts.contacts() }
        try await clients.auth.sendCode(try PhoneNumber(Self.phone))
        let session = try await clients.auth.verifyCode(try PhoneNumber(Self.phone), try OneTimeCode("161803"))
        #expect(await firebase.authClient.currentSession() == session)
        #expect(try await clients.contacts.contacts() == ContactList(contacts: [], sentInvitations: [], receivedInvitations: []))
        let code = try await clients.contacts.resetQRCode()
        #expect(try await local.userClient.profile().qrCodeID == code.id)

        try await clients.auth.signOut()
        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.notifications.notifications() }
    }
}
