import Foundation
import Testing

@testable import SupabaseREST

/// GoTrue's two error shapes (the 2024-01-01 `{code, message}` shape and the legacy one) and session loss.
@Suite struct AuthErrorTests {
    func failing(_ status: Int, _ body: String, versioned: Bool) -> RecordingTransport {
        RecordingTransport { _, _ in
            jsonResponse(status, body, headers: versioned ? ["X-Supabase-Api-Version": "2024-01-01"] : [:])
        }
    }

    @Test func versionedShapeUsesCode() async throws {
        let transport = failing(400, #"{"code":"invalid_credentials","message":"Invalid login credentials"}"#, versioned: true)
        await #expect(throws: AuthError.api(code: "invalid_credentials", message: "Invalid login credentials", status: 400)) {
            try await makeClient(transport).auth.signIn(email: "a@b.c", password: "x")
        }
    }

    @Test func legacyShapeUsesErrorCodeAndMsg() async throws {
        let transport = failing(
            403, #"{"code":403,"error_code":"otp_expired","msg":"Token has expired or is invalid"}"#, versioned: false)
        await #expect(throws: AuthError.api(code: "otp_expired", message: "Token has expired or is invalid", status: 403)) {
            try await makeClient(transport).auth.verifyOTP(phone: "+1", token: "000000", type: .sms)
        }
    }

    @Test func codeIsIgnoredWithoutTheVersionHeader() async throws {
        let transport = failing(422, #"{"code":"weak_password","message":"too short"}"#, versioned: false)
        await #expect(throws: AuthError.api(code: "unknown", message: "too short", status: 422)) {
            try await makeClient(transport).auth.signUp(email: "a@b.c", password: "x")
        }
    }

    @Test func oauthShapeMessage() async throws {
        let transport = failing(400, #"{"error":"invalid_grant","error_description":"Bad grant"}"#, versioned: false)
        await #expect(throws: AuthError.api(code: "unknown", message: "Bad grant", status: 400)) {
            try await makeClient(transport).auth.signIn(email: "a@b.c", password: "x")
        }
    }

    @Test func nonJSONErrorBodyIsTyped() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 502, body: Data("<html>bad gateway</html>".utf8))
        }
        await #expect(throws: AuthError.api(code: "unknown", message: "<html>bad gateway</html>", status: 502)) {
            try await makeClient(transport).auth.signInWithOTP(phone: "+1")
        }
        let empty = RecordingTransport { _, _ in HTTPResponse(status: 500) }
        await #expect(throws: AuthError.api(code: "unknown", message: "Unexpected error", status: 500)) {
            try await makeClient(empty).auth.signInWithOTP(phone: "+1")
        }
    }

    @Test func truncatedSessionIsInvalidResponse() async throws {
        let transport = RecordingTransport(body: #"{"access_token":"a","token_type":"bea"#)
        do {
            try await makeClient(transport).auth.signIn(email: "a@b.c", password: "x")
            Issue.record("expected an error")
        } catch AuthError.invalidResponse(let error) {
            #expect(error.type == "Session")
        }
    }

    @Test(arguments: ["session_not_found", "refresh_token_not_found", "refresh_token_already_used", "session_expired"])
    func sessionGoneCodesClearTheSession(code: String) async throws {
        let transport = failing(400, #"{"code":"\#(code)","message":"Invalid Refresh Token"}"#, versioned: true)
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(expiresIn: 10))
        var events = client.auth.authStateChanges.makeAsyncIterator()
        _ = await events.next()
        await #expect(throws: AuthError.sessionMissing) {
            _ = try await client.auth.session
        }
        #expect(client.auth.currentSession == nil)
        #expect(await events.next()?.event == .signedOut)
    }

    @Test func legacySessionNotFoundAlsoMapsToSessionMissing() async throws {
        let transport = failing(
            403, #"{"code":403,"error_code":"session_not_found","msg":"Session not found"}"#, versioned: false)
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(expiresIn: 3600))
        await #expect(throws: AuthError.sessionMissing) { _ = try await client.auth.user() }
        #expect(client.auth.currentSession == nil)
    }

    @Test func failedRefreshForOtherReasonsKeepsTheSession() async throws {
        let transport = failing(500, #"{"code":"unexpected_failure","message":"boom"}"#, versioned: true)
        let client = makeClient(transport, retry: .none)
        try await client.auth.setSession(try makeSession(expiresIn: 10))
        await #expect(throws: AuthError.api(code: "unexpected_failure", message: "boom", status: 500)) {
            _ = try await client.auth.session
        }
        #expect(client.auth.currentSession != nil)
    }

    @Test func transportFailuresAreWrapped() async throws {
        let transport = RecordingTransport { _, _ in throw TransportError.network(message: "refused") }
        await #expect(throws: AuthError.transport(.network(message: "refused"))) {
            try await makeClient(transport).auth.signInWithOTP(phone: "+1")
        }
    }
}
