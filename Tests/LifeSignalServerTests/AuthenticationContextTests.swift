import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Logging
import Testing

@testable import LifeSignalServer

/// The caller in the request context, alone: what ``AuthenticationMiddleware`` stores for each
/// kind of token, and how each API words a missing or refused one (its error type's
/// translation), with no server.
@Suite("authentication in the request context")
struct AuthenticationContextTests {
    @Test func theMiddlewareRecordsNoneVerifiedOrRefused() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let middleware = AuthenticationMiddleware<LifeSignalRequestContext>(auth: test.backend.auth)
        guard case .none = await middleware.authenticate(nil) else {
            Issue.record("no token must be none")
            return
        }

        let session = try await test.signIn("+15550001111")
        guard case .verified(let claims, let caller) = await middleware.authenticate(session.accessToken) else {
            Issue.record("a signed-in person's token must verify")
            return
        }
        #expect(caller == .user(session.user.id) && claims.sessionID != nil)

        guard case .verified(_, let anonymous) = await middleware.authenticate(await test.backend.auth.tokens.apiKey(role: .anon)) else {
            Issue.record("the anon key must verify")
            return
        }
        #expect(anonymous == .anonymous)

        guard case .refused(let garbage) = await middleware.authenticate("not.a.jwt") else {
            Issue.record("garbage must be refused")
            return
        }
        #expect(garbage is TokenError)

        test.clock.advance(by: TimeInterval(AccessTokens.lifetime + 60))
        guard case .refused(let expired) = await middleware.authenticate(session.accessToken) else {
            Issue.record("an expired token must be refused")
            return
        }
        #expect(expired as? TokenError == .expired)
    }

    @Test func aRefusedTokenIsNeverAnonymous() throws {
        let refused = Authentication.refused(TokenError.badSignature)
        #expect(throws: BearerTokenError.self) { try refused.caller() }
        #expect(throws: BearerTokenError.self) { try refused.required() }
        #expect(refused.claims == nil)
        #expect(throws: BearerTokenError.self) { try Authentication.none.required() }
        #expect(try Authentication.none.caller().caller == .anonymous)
    }

    @Test func functionsWordTokensAsVerifyJWTDoes() {
        let logger = Logger(label: "test")
        let missing = FunctionError.translating(BearerTokenError.missing, function: "check-in", logger: logger)
        #expect(missing.status == .unauthorized && missing.message == "Missing authorization header")
        let invalid = FunctionError.translating(BearerTokenError.refused(TokenError.expired), function: "check-in", logger: logger)
        #expect(invalid.status == .unauthorized && invalid.code == "unauthenticated" && invalid.message == "Invalid JWT")
        let outage = FunctionError.translating(BearerTokenError.refused(DatabaseError.unavailable("down")), function: "check-in", logger: logger)
        #expect(outage.status == .serviceUnavailable && outage.retryAfter == String(DatabaseError.retryAfterSeconds))
        let tooLarge = FunctionError.translating(BodyTooLarge(limit: 1024), function: "check-in", logger: logger)
        #expect(tooLarge.status == .contentTooLarge && tooLarge.message == "Request body exceeds 1024 bytes")
        let rule = FunctionError.translating(DomainError.rateLimited(retryAfter: 2.5), function: "check-in", logger: logger)
        #expect(rule.status == .tooManyRequests && rule.retryAfter == "3")
    }

    @Test func eachAPIWordsARefusedTokenItsOwnWay() {
        let refused = BearerTokenError.refused(TokenError.expired)
        let storage = StorageError.translating(refused)
        #expect(storage.status == .unauthorized && storage.error == "Unauthorized")
        let rest = RESTError.translating(refused, role: .anon)
        #expect(rest.status == .unauthorized && rest.code.rawValue == "PGRST303")
        #expect(rest.response.headers[.wwwAuthenticate]?.hasPrefix("Bearer error=\"invalid_token\"") == true)
        let gotrue = GoTrueMiddleware<LifeSignalRequestContext>(minimumPasswordLength: 8)
        #expect(gotrue.translating(refused).status == .forbidden && gotrue.translating(refused).code == "bad_jwt")
        #expect(gotrue.translating(BearerTokenError.missing).status == .unauthorized)
        #expect(gotrue.translating(BearerTokenError.missing).code == "no_authorization")
        let outage = gotrue.translating(DatabaseError.unavailable("down"))
        #expect(outage.status == .serviceUnavailable && outage.retryAfter == DatabaseError.retryAfterSeconds)
    }
}
