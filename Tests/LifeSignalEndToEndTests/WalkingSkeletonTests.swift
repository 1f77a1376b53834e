import Clocks
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

/// One flow through every layer: a person signs in by phone, checks in and reads back their
/// status, driven by the same reducers on each path:
/// (a) Local adapters → backend in-process → SQLite;
/// (b) Supabase adapters → SupabaseREST over HTTP → `lifesignal` server → SQLite;
/// (c) as (b), with the server on PostgreSQL.
@MainActor
@Suite("Walking skeleton: sign in, check in, read back")
struct WalkingSkeletonTests {
    enum Path: String, CaseIterable, Sendable, CustomStringConvertible {
        case localSQLite = "(a) local, SQLite"
        case supabaseSQLite = "(b) supabase over HTTP, SQLite"
        case supabasePostgres = "(c) supabase over HTTP, PostgreSQL"

        var description: String { rawValue }
        var engine: Engine { self == .supabasePostgres ? .postgres : .sqlite }
    }

    @Test("sign in by phone, check in, read back the deadline and band", arguments: Path.allCases)
    func skeleton(path: Path) async throws {
        let phone = "+15550001111"
        let test = try await TestDatabases.backend(path.engine, testOTPs: try TestOTPs(parsing: "\(phone)=123456"))
        var server: TestServer?
        let auth: LifeSignalClients.AuthClient
        let checkIns: CheckInClient
        switch path {
        case .localSQLite:
            let adapters = LocalAdapters(backend: test.backend)
            (auth, checkIns) = (adapters.authClient, adapters.checkInClient)
        case .supabaseSQLite, .supabasePostgres:
            let running = try await TestServer.start(test.backend)
            server = running
            let client = SupabaseClient(
                supabaseURL: running.baseURL, supabaseKey: running.anonKey,
                options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage())))
            let adapters = SupabaseAdapters(client: client)
            (auth, checkIns) = (adapters.authClient, adapters.checkInClient)
        }
        defer { if let server { Task { await server.stop() } } }

        // Sign in through the Auth feature.
        let authStore = Store(initialState: AuthFeature.State(), reducer: { AuthFeature() }) { $0.authClient = auth }
        authStore.send(.phoneChanged("+1 555 000 1111"))
        await authStore.send(.sendCodeTapped).finish()
        #expect(authStore.state.step == .enterCode(try PhoneNumber(phone)))
        authStore.send(.codeChanged("000000"))
        await authStore.send(.verifyTapped).finish()
        #expect(authStore.state.errorMessage == DomainError.invalidOTP.message)
        authStore.send(.codeChanged("123456"))
        await authStore.send(.verifyTapped).finish()
        let session = try #require(authStore.state.session)
        #expect(session.phone.e164 == phone)
        #expect(session.isNewUser)

        // Check in through the Check-in feature, and read the status back.
        let checkInStore = Store(initialState: CheckInFeature.State(), reducer: { CheckInFeature() }) {
            $0.checkInClient = checkIns
            $0.date = .constant(test.clock.now)
            $0.continuousClock = TestClock()
        }
        await checkInStore.send(.checkInTapped).finish()
        #expect(checkInStore.state.errorMessage == nil)
        let status = try #require(checkInStore.state.status)
        #expect(status.lastCheckIn == test.clock.now)
        #expect(status.deadline == test.clock.now.addingTimeInterval(24 * 3600))
        #expect(status.band(at: test.clock.now) == .green)
        #expect(checkInStore.state.lastResult?.deadline == status.deadline)

        // A second tap within five minutes is refused, by the feature or the backend.
        await checkInStore.send(.checkInTapped).finish()
        #expect(checkInStore.state.errorMessage?.contains("less than 5 minutes") == true)
        #expect(try await test.count("check_ins") == 1)

        // The backend agrees, whatever path the request took.
        let stored = try await test.backend.checkIns.status(caller: .user(session.userID))
        #expect(stored == status)
    }
}
