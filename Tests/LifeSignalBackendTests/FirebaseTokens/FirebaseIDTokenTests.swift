import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

@Suite("Firebase ID tokens")
struct FirebaseIDTokenTests {
    @Test("a valid ID token stands for a LifeSignal account made on first use and found later", arguments: Engine.allCases)
    func firstUseMakesAccount(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        defer { Task { await firebase.keyServer.stop() } }
        let token = try firebase.token("firebase-uid-1", phone: "+15550007001", email: "Ada@Example.com")
        let claims = try await firebase.auth.authenticate(token)
        #expect(claims.role == "authenticated")
        #expect(claims.aud == "authenticated")
        #expect(claims.sessionID == nil)
        #expect(claims.phone == "15550007001")
        #expect(claims.email == "Ada@Example.com")
        #expect(claims.exp == Int(firebase.now.timeIntervalSince1970) + 3600)
        #expect(claims.appMetadata?.provider == "firebase")
        let sub = try #require(claims.sub.flatMap(UUID.init(uuidString:)))
        #expect(try AccessTokens.caller(claims: claims) == .user(UserID(sub)))

        // The account is what phone sign-in makes: an auth user and a profile, linked to the uid.
        #expect(try await firebase.count("auth_users") == 1)
        #expect(try await firebase.count("auth_identities") == 1)
        let fetched = try await firebase.auth.user(id: UserID(sub))
        let user = try #require(fetched)
        #expect(user.phone?.e164 == "+15550007001")
        #expect(user.email == "ada@example.com")
        let profile = try await firebase.test.backend.database.query("SELECT phone FROM users WHERE id = \(SQLValue(sub))")
        #expect(try profile.first?.string("phone") == "+15550007001")

        // Later tokens of the same uid (a refreshed one included) are the same account.
        firebase.test.clock.advance(by: 600)
        let later = try await firebase.auth.authenticate(try firebase.token("firebase-uid-1"))
        #expect(later.sub == claims.sub)
        #expect(try await firebase.count("auth_users") == 1)
        // Another uid is another account.
        let other = try await firebase.auth.authenticate(try firebase.token("firebase-uid-2"))
        #expect(other.sub != claims.sub)
        #expect(try await firebase.count("auth_users") == 2)
    }

    @Test("concurrent first uses of one uid make one account", arguments: Engine.allCases)
    func concurrentFirstUses(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        defer { Task { await firebase.keyServer.stop() } }
        let token = try firebase.token("firebase-uid-race")
        let subs = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<12 { group.addTask { try await firebase.auth.authenticate(token).sub } }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(subs.count == 1)
        #expect(try await firebase.count("auth_users") == 1)
        #expect(try await firebase.count("users") == 1)
        #expect(try await firebase.count("auth_identities") == 1)
        // The concurrent callers shared one fetch of the keys.
        #expect(firebase.keyServer.requestCount == 1)
    }

    @Test("a phone or email another account holds is not taken, and that account is not linked", arguments: [Engine.sqlite])
    func noTakeover(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        defer { Task { await firebase.keyServer.stop() } }
        let existing = try await firebase.test.signIn("+15550007002")
        let claims = try await firebase.auth.authenticate(try firebase.token("firebase-uid-3", phone: "+15550007002"))
        #expect(claims.sub != existing.user.id.description)
        let sub = try #require(claims.sub.flatMap(UUID.init(uuidString:)))
        #expect(try await firebase.auth.user(id: UserID(sub))?.phone == nil)
        // A phone Firebase did not verify in this sign-in is not recorded either.
        let unverified = try await firebase.auth.authenticate(
            try firebase.token("firebase-uid-4", phone: "+15550007003") {
                $0["firebase"] = ["sign_in_provider": "custom"] as [String: any Sendable]
            })
        let unverifiedID = try #require(unverified.sub.flatMap(UUID.init(uuidString:)))
        #expect(try await firebase.auth.user(id: UserID(unverifiedID))?.phone == nil)
    }

    @Test("a token that breaks any of Firebase's rules is refused and makes no account", arguments: [Engine.sqlite])
    func refusals(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        defer { Task { await firebase.keyServer.stop() } }
        let now = Int(firebase.now.timeIntervalSince1970)
        let unknown = try FirebaseSigningKey.generated(kid: "key-unpublished")
        let aud = TokenError.malformed("Firebase ID token: aud is not this project")
        let sub = TokenError.malformed("Firebase ID token: sub must be a uid of 1 to 128 characters")
        let alg = TokenError.malformed("Firebase ID token: alg must be RS256")
        let cases: [(String, String, TokenError)] = [
            ("wrong aud", try firebase.token("u") { $0["aud"] = "another-project" }, aud),
            ("aud of two projects", try firebase.token("u") { $0["aud"] = [FirebaseFixture.projectID, "another-project"] }, aud),
            ("expired", try firebase.token("u") { $0["exp"] = now - 3600 }, .expired),
            (
                "iat in the future",
                try firebase.token("u") {
                    $0["iat"] = now + 3600
                    $0["exp"] = now + 7200
                },
                .malformed("Firebase ID token: iat is in the future")
            ),
            (
                "auth_time in the future", try firebase.token("u") { $0["auth_time"] = now + 3600 },
                .malformed("Firebase ID token: auth_time is in the future")
            ),
            (
                "no auth_time", try firebase.token("u") { $0["auth_time"] = nil },
                .malformed("Firebase ID token: exp, iat and auth_time are required")
            ),
            ("no sub", try firebase.token("u") { $0["sub"] = nil }, sub),
            ("empty sub", try firebase.token("u") { $0["sub"] = "" }, sub),
            ("sub of 129 characters", try firebase.token("u") { $0["sub"] = String(repeating: "x", count: 129) }, sub),
            ("alg none", try firebase.keyA.sign(firebase.issuer.claims(uid: "u", now: firebase.now), header: ["alg": "none", "kid": "key-a"]), alg),
            (
                "HS256 keyed by the public key",
                try firebase.keyA.sign(
                    firebase.issuer.claims(uid: "u", now: firebase.now), header: ["alg": "HS256", "kid": "key-a", "typ": "JWT"],
                    hmacSecret: firebase.keyA.publicKeyPEM), alg
            ),
            (
                "no kid", try firebase.keyA.sign(firebase.issuer.claims(uid: "u", now: firebase.now), header: ["alg": "RS256"]),
                .malformed("Firebase ID token: no kid")
            ),
            ("unknown kid", try unknown.sign(firebase.issuer.claims(uid: "u", now: firebase.now)), .badSignature),
            (
                "a published kid, signed by another key",
                try unknown.sign(
                    firebase.issuer.claims(uid: "u", now: firebase.now), header: ["alg": "RS256", "kid": "key-a"]), .badSignature
            ),
            ("another uid put in after signing", try Self.swapPayload(of: firebase.token("u"), with: firebase.token("victim")), .badSignature),
        ]
        for (name, token, expected) in cases {
            await #expect(throws: expected, "\(name)") { try await firebase.auth.authenticate(token) }
        }
        // A token claiming another project's issuer is not a Firebase token here: it is checked
        // as LifeSignal's own (HS256 only), and refused.
        let elsewhere = try firebase.token("u") { $0["iss"] = "https://securetoken.google.com/another-project" }
        await #expect(throws: TokenError.malformed("Wrong or unsupported encoding algorithm")) { try await firebase.auth.authenticate(elsewhere) }
        #expect(try await firebase.count("auth_users") == 0)
        #expect(try await firebase.count("auth_identities") == 0)
    }

    @Test("a stream of made-up kids fetches the keys at most once per refetch interval", arguments: [Engine.sqlite])
    func forgedKidsDoNotHammer(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine, refetchInterval: 60)
        defer { Task { await firebase.keyServer.stop() } }
        _ = try await firebase.auth.authenticate(try firebase.token("u"))
        #expect(firebase.keyServer.requestCount == 1)
        for index in 0..<20 {
            let forged = try FirebaseSigningKey.fixedB(kid: "made-up-\(index)").sign(firebase.issuer.claims(uid: "u", now: firebase.now))
            await #expect(throws: TokenError.badSignature) { try await firebase.auth.authenticate(forged) }
        }
        #expect(firebase.keyServer.requestCount == 1, "every forged kid fell inside the interval after the first fetch")
        firebase.test.clock.advance(by: 61)
        let forged = try FirebaseSigningKey.fixedB(kid: "made-up-late").sign(firebase.issuer.claims(uid: "u", now: firebase.now))
        await #expect(throws: TokenError.badSignature) { try await firebase.auth.authenticate(forged) }
        #expect(firebase.keyServer.requestCount == 2)
        // Known kids never wait for the key server.
        _ = try await firebase.auth.authenticate(try firebase.token("u"))
        #expect(firebase.keyServer.requestCount == 2)
    }

    @Test("LifeSignal's own tokens and keys are checked as before when Firebase is configured", arguments: [Engine.sqlite])
    func ownTokensUnchanged(engine: Engine) async throws {
        let firebase = try await FirebaseFixture.make(engine)
        defer { Task { await firebase.keyServer.stop() } }
        let session = try await firebase.test.signIn("+15550007004")
        #expect(try await firebase.auth.authenticate(session.accessToken).sub == session.user.id.description)
        #expect(try await firebase.auth.authenticate(await firebase.auth.tokens.apiKey(role: .anon)).role == "anon")
        #expect(firebase.keyServer.requestCount == 0, "no key fetch for a token that is not Firebase's")
    }

    /// `token`'s header and signature around `other`'s payload.
    static func swapPayload(of token: String, with other: String) -> String {
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = other.split(separator: ".").map(String.init)[1]
        return parts.joined(separator: ".")
    }
}
