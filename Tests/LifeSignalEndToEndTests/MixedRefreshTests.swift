import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalSQLite
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// A mix keeps one owner of the refresh token, so an hour-old session survives refreshes by
/// every provider in it (the server revokes a session whose used refresh token comes back).
@Suite("Adapter factory: one owner for the refresh token")
struct MixedRefreshTests {
    /// A backend with a test code for `phone`, its server, and in-process and Supabase adapters
    /// over them. The backend's clock starts at the real time, so the Supabase client (which
    /// reads the real clock) and the server agree on when a token was issued.
    static func providers(_ engine: Engine, phone: String) async throws
        -> (test: TestBackend, clock: ManualClock, server: TestServer, local: LocalAdapters, supabase: SupabaseAdapters)
    {
        let clock = ManualClock(Date())
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "\(phone)=271828"), clock: clock)
        let server = try await TestServer.start(test.backend)
        let supabase = SupabaseAdapters(
            client: SupabaseClient(
                supabaseURL: server.baseURL, supabaseKey: server.anonKey,
                options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()))))
        return (test, clock, server, LocalAdapters(backend: test.backend), supabase)
    }

    @Test(
        "after the in-process owner refreshed, the Supabase client's refresh takes the owner's session and nobody is signed out",
        arguments: Engine.allCases)
    func supabaseFollowsTheOwner(engine: Engine) async throws {
        let phone = "+15550004014"
        let (test, clock, server, local, supabase) = try await Self.providers(engine, phone: phone)
        defer { Task { await server.stop() } }
        let clients = try AdapterFactory(local: local, supabase: supabase)
            .clients(ProviderSelection(default: .local, overrides: [.contacts: .supabase]))

        try await clients.auth.sendCode(try PhoneNumber(phone))
        let first = try await clients.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))
        _ = try await clients.contacts.contacts()
        #expect(supabase.client.auth.currentSession?.refreshToken == first.refreshToken)

        // Almost an hour later the in-process owner refreshes before a check-in: the refresh
        // token the Supabase client holds is now used.
        clock.advance(by: Double(AccessTokens.lifetime) - 30)
        _ = try await clients.checkIn.checkIn()
        let owners = try #require(await local.sessions.session)
        #expect(owners.refreshToken != first.refreshToken)

        // The Supabase client's own refresh (it reads the real clock, so it is made to happen
        // now) asks the owner instead of presenting the used token.
        let refreshed = try await supabase.client.auth.refreshSession()
        #expect(refreshed.refreshToken == owners.refreshToken && refreshed.accessToken == owners.accessToken)
        _ = try await clients.contacts.contacts()
        _ = try await clients.checkIn.status()
        #expect(try await test.count("auth_sessions") == 1, "the session was not revoked")
    }

    @Test(
        "a Supabase owner refreshes; the in-process adopter takes its session when its own expires",
        arguments: [Engine.sqlite])
    func localFollowsTheOwner(engine: Engine) async throws {
        let phone = "+15550004015"
        let (test, clock, server, local, supabase) = try await Self.providers(engine, phone: phone)
        defer { Task { await server.stop() } }
        let clients = try AdapterFactory(local: local, supabase: supabase)
            .clients(ProviderSelection(default: .supabase, overrides: [.checkIn: .local]))

        try await clients.auth.sendCode(try PhoneNumber(phone))
        let first = try await clients.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("271828"))
        _ = try await clients.checkIn.checkIn()
        #expect(await local.sessions.session?.refreshToken == first.refreshToken)

        // The owner refreshes (as it would before a request near expiry).
        let owners = try await supabase.client.auth.refreshSession()
        // The in-process adopter's session is about to expire by the backend's clock: it takes
        // the owner's session instead of presenting the used refresh token.
        clock.advance(by: Double(AccessTokens.lifetime) - 30)
        _ = try await clients.checkIn.checkIn()
        #expect(await local.sessions.session?.refreshToken == owners.refreshToken)
        _ = try await clients.contacts.contacts()
        #expect(try await test.count("auth_sessions") == 1, "the session was not revoked")
    }
}
