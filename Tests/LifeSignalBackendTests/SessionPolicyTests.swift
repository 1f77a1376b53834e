import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@testable import LifeSignalBackend

/// The session rules inside the backend: which tokens name an active session, what the
/// session cache may remember, and when a stored password hash is due for more rounds.
@Suite("Auth sessions and password policy")
struct SessionPolicyTests {
    @Test("a signed-out session is no longer active, on both engines, even with a long cache", arguments: Engine.allCases)
    func activeSessions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) { $0.authPolicy.sessionCheckStaleness = 3600 }
        let auth = test.backend.auth
        let session = try await test.signIn("+15550001111")
        let claims = try await auth.tokens.verify(session.accessToken)
        #expect(Sessions.id(of: claims) == session.sessionID)
        #expect(try await auth.sessions.isActive(claims))
        #expect(try await auth.sessions.isActive(claims), "answered again (from the cache)")
        try await auth.sessions.signOut(user: session.user.id, session: session.sessionID, scope: .local)
        #expect(try await auth.sessions.isActive(claims) == false, "ending a session here forgets what was cached")

        var foreign = claims
        foreign.sub = UUID().uuidString
        #expect(try await auth.sessions.isActive(foreign) == false, "a session belongs to one person")
        var service = TokenClaims(role: "service_role")
        service.sessionID = UUID().uuidString
        #expect(try await auth.sessions.isActive(service), "API keys name no session")
    }

    @Test("the cache trusts an active session only for its staleness, an ended one for good")
    func cache() {
        let session = UUID()
        let user = UUID()
        let fresh = SessionCache(staleness: 3600)
        #expect(fresh.lookup(session, user: user) == nil)
        fresh.remember(session, user: user)
        #expect(fresh.lookup(session, user: user) == true)
        #expect(fresh.lookup(session, user: UUID()) == false)
        fresh.forgetActive()
        #expect(fresh.lookup(session, user: user) == nil)
        fresh.remember(session, user: nil)
        fresh.forgetActive()
        #expect(fresh.lookup(session, user: user) == false)

        let stale = SessionCache(staleness: 0)
        stale.remember(session, user: user)
        #expect(stale.lookup(session, user: user) == nil, "with no staleness allowed every check reads")
    }

    @Test("a hash with fewer rounds than configured, or not in the stored form, is due for an upgrade")
    func upgrade() {
        let hasher = PasswordHasher(iterations: 2000)
        #expect(hasher.needsUpgrade(PasswordHasher(iterations: 1000).hash("pw")))
        #expect(!hasher.needsUpgrade(hasher.hash("pw")))
        #expect(!hasher.needsUpgrade(PasswordHasher(iterations: 3000).hash("pw")))
        #expect(hasher.needsUpgrade("md5$abc"))
        #expect(AuthPolicy().minimumPasswordLength == 8)
        #expect(AuthPolicy().reauthenticationWindow == 600)
    }
}
