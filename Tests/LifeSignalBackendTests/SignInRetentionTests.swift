import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The sweep deletes sign-in bookkeeping once no check can read it again, so strangers'
/// guesses and code requests cannot grow the auth tables for as long as they keep trying;
/// nothing still in use goes.
@Suite("Sweep: sign-in retention")
struct SignInRetentionTests {
    @Test("throttle counts, expired codes, old revoked refresh tokens and inactive sessions go; live ones stay", arguments: Engine.allCases)
    func prunes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550000001")
        // A stranger's traces: a wrong password at an address with no account, a code asked
        // for a number nobody verifies.
        await #expect(throws: (any Error).self) {
            _ = try await test.backend.auth.passwords.signIn(email: "nobody@example.com", phone: nil, password: "wrong-password")
        }
        try await test.backend.auth.requestCode(phone: "+15550000002")
        // The refresh rotates the token: the first one stays, revoked, for reuse detection.
        let refreshed = try await test.backend.auth.sessions.refresh(refreshToken: session.refreshToken)
        #expect(try await test.count("auth_password_failures") == 1)
        #expect(try await test.count("auth_one_time_codes") == 1)
        #expect(try await test.count("auth_refresh_tokens") == 2)
        // Each number's code count, and the SMS budget the codes counted against too.
        #expect(try await test.count("lifesignal_send_counts") == 3)

        // Nothing has served its purpose a minute later.
        test.clock.advance(by: 60)
        var report = try await test.backend.sweep.run(caller: .service)
        #expect(report.deletedSignInRows == 0)
        #expect(try await test.count("auth_password_failures") == 1)
        #expect(try await test.count("auth_one_time_codes") == 1)

        // Two days on: the windows ended, the code expired, the revoked token is past its day.
        test.clock.advance(by: 2 * 24 * 3600)
        report = try await test.backend.sweep.run(caller: .service, batchSize: 1)
        #expect(report.deletedSignInRows == 6)
        #expect(try await test.count("auth_password_failures") == 0)
        #expect(try await test.count("lifesignal_send_counts") == 0)
        #expect(try await test.count("auth_one_time_codes") == 0)
        #expect(try await test.count("auth_refresh_tokens") == 1)
        #expect(try await test.count("auth_sessions") == 1)
        // The live token still refreshes.
        let again = try await test.backend.auth.sessions.refresh(refreshToken: refreshed.refreshToken)

        // Past the inactivity period the session is refused already; the sweep deletes it and
        // its tokens.
        test.clock.advance(by: 31 * 24 * 3600)
        report = try await test.backend.sweep.run(caller: .service)
        #expect(report.deletedSignInRows == 2, "the inactive session and the one revoked token left")
        #expect(try await test.count("auth_sessions") == 0)
        #expect(try await test.count("auth_refresh_tokens") == 0)
        await #expect(throws: (any Error).self) { _ = try await test.backend.auth.sessions.refresh(refreshToken: again.refreshToken) }
    }
}
