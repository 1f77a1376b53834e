import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

@Suite("Firebase signing keys")
struct FirebaseKeyRotationTests {
    @Test(
        "keys rotate: a new kid after a refetch, the old one until it leaves the set and the cache expires",
        arguments: [FirebaseKeyServer.Format.jwks, .x509])
    func rotation(format: FirebaseKeyServer.Format) async throws {
        let firebase = try await FirebaseFixture.make(.sqlite, format: format, maxAge: 600, refetchInterval: 10)
        defer { Task { await firebase.keyServer.stop() } }
        let first = try await firebase.auth.authenticate(try firebase.token("rotating"))
        #expect(firebase.keyServer.requestCount == 1)

        // Google publishes the next key beside the current one, then signs with it.
        firebase.keyServer.publish([firebase.keyA, firebase.keyB])
        firebase.test.clock.advance(by: 11)
        let underB = try await firebase.auth.authenticate(try firebase.token("rotating", key: firebase.keyB))
        #expect(underB.sub == first.sub)
        #expect(firebase.keyServer.requestCount == 2, "the unknown kid fetched the keys once")
        #expect(try await firebase.auth.authenticate(try firebase.token("rotating")).sub == first.sub, "the old kid still works")

        // The old key is withdrawn: tokens under it work while the fetched set is fresh…
        firebase.keyServer.publish([firebase.keyB])
        firebase.test.clock.advance(by: 300)
        let underA = try firebase.token("rotating")
        #expect(try await firebase.auth.authenticate(underA).sub == first.sub)
        #expect(firebase.keyServer.requestCount == 2)
        // …and are refused once it has expired (max-age 600) and the set is read again.
        firebase.test.clock.advance(by: 301)
        await #expect(throws: TokenError.badSignature) { try await firebase.auth.authenticate(try firebase.token("rotating")) }
        #expect(firebase.keyServer.requestCount == 3)
        #expect(try await firebase.auth.authenticate(try firebase.token("rotating", key: firebase.keyB)).sub == first.sub)
        #expect(try await firebase.count("auth_users") == 1)
    }

    @Test("a key server that fails refuses Firebase tokens (401) and LifeSignal's own tokens keep working")
    func keyServerDown() async throws {
        let firebase = try await FirebaseFixture.make(.sqlite, refetchInterval: 10)
        defer { Task { await firebase.keyServer.stop() } }
        firebase.keyServer.set(.failing)
        await #expect(throws: TokenError.self) { try await firebase.auth.authenticate(try firebase.token("down")) }
        let session = try await firebase.test.signIn("+15550007101")
        #expect(try await firebase.auth.authenticate(session.accessToken).sub == session.user.id.description)
        // Within the interval the key server is not asked again; after it, it is, and serves.
        await #expect(throws: TokenError.self) { try await firebase.auth.authenticate(try firebase.token("down")) }
        #expect(firebase.keyServer.requestCount == 1)
        firebase.keyServer.set(.serving)
        firebase.test.clock.advance(by: 11)
        #expect(try await firebase.auth.authenticate(try firebase.token("down")).role == "authenticated")
        #expect(try await firebase.count("auth_identities") == 1)
    }

    @Test("a key server that hangs refuses Firebase tokens within a bound, one fetch for every waiting caller")
    func keyServerHangs() async throws {
        let firebase = try await FirebaseFixture.make(.sqlite, fetchTimeout: .seconds(1))
        defer { Task { await firebase.keyServer.stop() } }
        firebase.keyServer.set(.hanging)
        let token = try firebase.token("hung")
        let started = ContinuousClock.now
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 { group.addTask { (try? await firebase.auth.authenticate(token)) == nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        // A bound against a hang (the fetch timeout is 1 s), not a speed check.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(outcomes == Array(repeating: true, count: 6))
        #expect(firebase.keyServer.requestCount == 1)
        do {
            _ = try await firebase.auth.authenticate(token)
            Issue.record("a token was accepted without keys")
        } catch let error as TokenError {
            guard case .malformed(let why) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(why.contains("could not be fetched"))
        }
        let session = try await firebase.test.signIn("+15550007102")
        #expect(try await firebase.auth.authenticate(session.accessToken).role == "authenticated")
        #expect(try await firebase.count("auth_identities") == 0)
    }
}
