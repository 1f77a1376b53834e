import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Changing how an account signs in over HTTP: a new password ends every other session, and
/// changing the password, email or phone needs a recent sign-in or a code from
/// `GET /auth/v1/reauthenticate` (`nonce`), with GoTrue's codes.
@Suite("/auth/v1 reauthentication and password changes")
struct AuthReauthenticationEndpointTests {
    static let phone = "+15550001111"

    /// A phone account signed in by SMS code, given a password so more sessions are at hand.
    static func phoneAccount(_ test: TestBackend, _ server: TestServer) async throws -> IssuedSession {
        let session = try await test.signIn(phone)
        let set = try await server.json("PUT", "/auth/v1/user", bearer: session.accessToken, headers: SessionSteps.version, ["password": "first password"])
        #expect(set.status == 200, "a fresh sign-in may set a password")
        return session
    }

    @Test("a new password ends every other session of the person and keeps the caller's", arguments: Engine.allCases)
    func passwordEndsOtherSessions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let first = try await Self.phoneAccount(test, server)
        let second = try await SessionSteps.signIn(server, phone: Self.phone, password: "first password")
        let third = try await SessionSteps.signIn(server, phone: Self.phone, password: "first password")
        let bob = try await SessionSteps.signUp(server, "bob@example.org")
        #expect(try await SessionSteps.userStatus(server, first.accessToken) == 200)

        let changed = try await server.json("PUT", "/auth/v1/user", bearer: third.access, headers: SessionSteps.version, ["password": "second password"])
        #expect(changed.status == 200)
        for ended in [first.accessToken, second.access] {
            #expect(try await SessionSteps.userStatus(server, ended) == 403)
            #expect(try await server.request("POST", "/functions/v1/get-contacts", bearer: ended).status == 401)
        }
        #expect(try await SessionSteps.refresh(server, second.refresh).json?["code"] as? String == "refresh_token_not_found")
        #expect(try await SessionSteps.userStatus(server, third.access) == 200, "the session that changed it goes on")
        #expect(try await SessionSteps.refresh(server, third.refresh).status == 200)
        #expect(try await SessionSteps.userStatus(server, bob.access) == 200)
        #expect(try await SessionSteps.sessionCount(test, user: third.userID) == 1)

        // Metadata alone is no password change: nothing ends.
        let fourth = try await SessionSteps.signIn(server, phone: Self.phone, password: "second password")
        #expect(try await server.json("PUT", "/auth/v1/user", bearer: fourth.access, headers: SessionSteps.version, ["data": ["city": "Leeds"]]).status == 200)
        #expect(try await SessionSteps.sessionCount(test, user: third.userID) == 2)
    }

    @Test("past the window, password, email and phone changes need a nonce (reauthentication_needed, _not_valid); data does not", arguments: Engine.allCases)
    func reauthentication(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await Self.phoneAccount(test, server)
        let token = session.accessToken
        test.clock.advance(by: 11 * 60)

        let changes: [[String: any Sendable]] = [["password": "a new password"], ["email": "ada@example.org"], ["phone": "+15550003333"]]
        for change in changes {
            let refused = try await server.json("PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, change)
            #expect(refused.status == 400, "\(change)")
            #expect(refused.json?["code"] as? String == "reauthentication_needed", "\(change)")
            #expect(
                refused.json?["message"] as? String
                    == (change["password"] != nil ? "Password update requires reauthentication" : "Email or phone update requires reauthentication"))
        }
        let legacy = try await server.json("PUT", "/auth/v1/user", bearer: token, ["password": "a new password"])
        #expect(legacy.status == 400)
        #expect(legacy.json?["error_code"] as? String == "reauthentication_needed")
        #expect(legacy.header("x-sb-error-code") == "reauthentication_needed")
        #expect(await test.sms.lastCode(for: try PhoneNumber("+15550003333")) == nil, "no phone-change code went out")
        #expect(try await server.json("PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["data": ["city": "York"]]).status == 200)
        #expect(
            try await server.json(
                "PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version,
                ["phone": "15550001111"]
            ).status == 200, "the number it already has is no change")

        let noCode = try await server.json(
            "PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "a new password", "nonce": "123456"])
        #expect(noCode.status == 422, "a nonce when none was sent")
        #expect(noCode.json?["code"] as? String == "reauthentication_not_valid")

        let sent = try await server.request("GET", "/auth/v1/reauthenticate", bearer: token, headers: SessionSteps.version)
        #expect(sent.status == 200)
        #expect(sent.json?.isEmpty == true)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.phone))).value
        let soon = try await server.request("GET", "/auth/v1/reauthenticate", bearer: token, headers: SessionSteps.version)
        #expect(soon.status == 429)
        #expect(soon.json?["code"] as? String == "over_sms_send_rate_limit")

        let wrong = code == "000000" ? "000001" : "000000"
        let refused = try await server.json(
            "PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "a new password", "nonce": wrong])
        #expect(refused.status == 422)
        #expect(refused.json?["code"] as? String == "reauthentication_not_valid")
        #expect(refused.json?["message"] as? String == "Nonce has expired or is invalid")
        let weak = try await server.json("PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "short", "nonce": code])
        #expect(weak.json?["code"] as? String == "weak_password", "a weak password is refused before the nonce is spent")

        let accepted = try await server.json(
            "PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version,
            ["password": "a new password", "email": "Ada@Example.org", "nonce": code])
        #expect(accepted.status == 200)
        #expect(accepted.json?["email"] as? String == "ada@example.org")
        #expect(try await SessionSteps.signIn(server, email: "ada@example.org", password: "a new password").userID == session.user.id.description)
        let reused = try await server.json("PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "third password", "nonce": code])
        #expect(reused.json?["code"] as? String == "reauthentication_not_valid", "a nonce works once")

        // Wrong guesses are counted even though each request fails: five burn the code.
        test.clock.advance(by: 61)
        #expect(try await server.request("GET", "/auth/v1/reauthenticate", bearer: token).status == 200)
        let fresh = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.phone))).value
        let guess = fresh == "000000" ? "000001" : "000000"
        for _ in 0..<OneTimeCode.maximumAttempts {
            _ = try await server.json("PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "third password", "nonce": guess])
        }
        let burned = try await server.json(
            "PUT", "/auth/v1/user", bearer: token, headers: SessionSteps.version, ["password": "third password", "nonce": fresh])
        #expect(burned.json?["code"] as? String == "reauthentication_not_valid")
    }

    @Test("an account with only an email reauthenticates by signing in again: no code can reach it", arguments: Engine.allCases)
    func emailOnly(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) { $0.authPolicy.reauthenticationWindow = 60 }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let old = try await SessionSteps.signUp(server, "grace@example.org")
        test.clock.advance(by: 120)
        let unreachable = try await server.request("GET", "/auth/v1/reauthenticate", bearer: old.access, headers: SessionSteps.version)
        #expect(unreachable.status == 422)
        #expect(unreachable.json?["code"] as? String == "reauthentication_not_valid")
        #expect(
            try await server.json("PUT", "/auth/v1/user", bearer: old.access, headers: SessionSteps.version, ["password": "brand new one"])
                .json?["code"] as? String == "reauthentication_needed")
        let recent = try await SessionSteps.signIn(server, email: "grace@example.org")
        #expect(
            try await server.json("PUT", "/auth/v1/user", bearer: recent.access, headers: SessionSteps.version, ["password": "brand new one"]).status == 200)
        #expect(try await SessionSteps.userStatus(server, old.access) == 403, "and the old session ended with the password change")
    }
}
