import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// Seed `003_…`'s mixed backend: capabilities on different providers, one person.
@MainActor
@Suite("Adapter factory: providers chosen per capability")
struct MixedProvidersTests {
    @Test("the selection reads LIFESIGNAL_PROVIDER and per-capability overrides; bad names and missing providers are refused")
    func selection() throws {
        let selection = try ProviderSelection(environment: [
            "LIFESIGNAL_PROVIDER": "supabase", "LIFESIGNAL_PROVIDER_CONTENT": "Local", "LIFESIGNAL_PROVIDER_CHECK_IN": " local ",
        ])
        #expect(selection.provider(for: .auth) == .supabase && selection.provider(for: .alerts) == .supabase)
        #expect(selection.provider(for: .content) == .local && selection.provider(for: .checkIn) == .local)
        #expect(try ProviderSelection(environment: [:]) == ProviderSelection(default: .local))
        #expect(throws: DomainError.invalidArgument("LIFESIGNAL_PROVIDER_PINGS=parse is not a provider; use local, supabase or firebase")) {
            try ProviderSelection(environment: ["LIFESIGNAL_PROVIDER_PINGS": "parse"])
        }
        #expect(throws: DomainError.invalidArgument("auth is set to supabase, which is not configured")) {
            try AdapterFactory().clients(ProviderSelection(default: .supabase))
        }
        #expect(throws: DomainError.invalidArgument("auth is set to firebase, which is not configured")) {
            try AdapterFactory().clients(ProviderSelection(default: .firebase))
        }
    }

    @Test("auth, check-in and contacts over Supabase, content in-process: one sign-in serves both", arguments: [Engine.sqlite, .postgres])
    func mixed(engine: Engine) async throws {
        let phone = "+15550004004"
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "\(phone)=271828"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let supabase = SupabaseAdapters(
            client: SupabaseClient(
                supabaseURL: server.baseURL, supabaseKey: server.anonKey,
                options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()))))
        let local = LocalAdapters(backend: test.backend)
        let clients = try AdapterFactory(local: local, supabase: supabase)
            .clients(ProviderSelection(default: .supabase, overrides: [.content: .local]))

        // Writing content needs a session: none yet on either side.
        await #expect(throws: DomainError.unauthenticated) { _ = try await clients.content.saveRoute(.init(name: "Loop")) }
        try await clients.auth.sendCode(try PhoneNumber(phone))
        let session = try await clients.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))
        // The Supabase sign-in was handed to the in-process adapters.
        #expect(await local.sessions.session == session)

        try await AdapterHarness.makeEditor(test, session.userID)
        let route = try await clients.content.saveRoute(.init(name: "Valley Loop", durationMinutes: 90, status: .published))
        #expect(route.createdBy == session.userID.rawValue)
        // Written in-process, read back over HTTP: the same database. The token over HTTP was
        // issued before the person became an editor, so it reads as everyone does.
        #expect(try await supabase.contentClient.routes(ContentFilter()).map(\.id) == [route.id])
        let result = try await clients.checkIn.checkIn()
        #expect(try await local.checkInClient.status().lastCheckIn == result.checkedInAt)
        #expect(try await clients.contacts.contacts().contacts.isEmpty)

        // Features see the mix through their dependencies.
        let store = Store(initialState: ContentAdminFeature.State(tab: .routes), reducer: { ContentAdminFeature() }) {
            clients.install(into: &$0)
        }
        await store.send(.task).finish()
        #expect(store.state.listing == .routes([route]))

        try await clients.auth.signOut()
        #expect(await local.sessions.session == nil)
        await #expect(throws: DomainError.unauthenticated) { try await clients.content.deleteRoute(route.id) }
    }
}
