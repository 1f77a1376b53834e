import Foundation
import Testing

@testable import FirebaseREST

/// The `CODE : detail` error format and what the session does with it.
@Suite struct AuthErrorTests {
    func failing(_ message: String, status: Int = 400, reason: String? = nil) -> RecordingTransport {
        let errors = reason.map { #","errors":[{"message":"x","domain":"global","reason":"\#($0)"}]"# } ?? ""
        return RecordingTransport(status: status, body: #"{"error":{"code":\#(status),"message":"\#(message)"\#(errors)}}"#)
    }

    @Test(arguments: [
        ("EMAIL_EXISTS", IdentityToolkitError.Code.emailExists), ("EMAIL_NOT_FOUND", .emailNotFound),
        ("INVALID_PASSWORD", .invalidPassword), ("INVALID_LOGIN_CREDENTIALS", .invalidLoginCredentials),
        ("USER_DISABLED", .userDisabled), ("USER_NOT_FOUND", .userNotFound), ("WEAK_PASSWORD", .weakPassword),
        ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyAttemptsTryLater), ("TOKEN_EXPIRED", .tokenExpired),
        ("INVALID_ID_TOKEN", .invalidIDToken), ("INVALID_REFRESH_TOKEN", .invalidRefreshToken),
        ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .credentialTooOldLoginAgain), ("INVALID_OOB_CODE", .invalidOOBCode),
        ("EXPIRED_OOB_CODE", .expiredOOBCode), ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
        ("INVALID_PHONE_NUMBER", .invalidPhoneNumber), ("INVALID_CODE", .invalidCode),
        ("SESSION_EXPIRED", .sessionExpired), ("PHONE_NUMBER_EXISTS", .phoneNumberExists),
    ])
    func knownCodes(raw: String, code: IdentityToolkitError.Code) async throws {
        let auth = IdentityToolkitClient(apiKey: "K", options: options(failing(raw)))
        await #expect(throws: IdentityToolkitError(code: code, message: raw, status: 400)) {
            _ = try await auth.signIn(email: "a@b.c", password: "p")
        }
        #expect(code.rawValue == raw)
    }

    @Test func detailAfterColonIsKept() async throws {
        let auth = IdentityToolkitClient(
            apiKey: "K", options: options(failing("WEAK_PASSWORD : Password should be at least 6 characters")))
        do {
            _ = try await auth.signUp(email: "a@b.c", password: "1")
            Issue.record("expected an error")
        } catch let error as IdentityToolkitError {
            #expect(error.code == .weakPassword)
            #expect(error.detail == "Password should be at least 6 characters")
            #expect(error.message == "WEAK_PASSWORD : Password should be at least 6 characters")
        }
    }

    @Test func unknownCodeKeptWithTextAndReason() async throws {
        let auth = IdentityToolkitClient(
            apiKey: "K", options: options(failing("API key not valid. Please pass a valid API key.", reason: "keyInvalid")))
        do {
            _ = try await auth.lookup(idToken: "x")
            Issue.record("expected an error")
        } catch let error as IdentityToolkitError {
            #expect(error.code == .other("API key not valid. Please pass a valid API key."))
            #expect(error.reason == "keyInvalid")
        }
    }

    @Test func nonJSONAndEmptyErrorBodies() async throws {
        let html = RecordingTransport(status: 502, body: "<html>Bad Gateway</html>")
        await #expect(throws: IdentityToolkitError(code: .other("HTTP_502"), message: "<html>Bad Gateway</html>", status: 502)) {
            _ = try await IdentityToolkitClient(apiKey: "K", options: options(html)).signUpAnonymously()
        }
        let empty = RecordingTransport(status: 500, body: "")
        await #expect(throws: IdentityToolkitError(code: .other("HTTP_500"), message: "HTTP 500", status: 500)) {
            _ = try await IdentityToolkitClient(apiKey: "K", options: options(empty)).refresh(refreshToken: "r")
        }
    }

    @Test func truncatedSuccessIsDecodingError() async throws {
        let transport = RecordingTransport(body: #"{"idToken":"I","refreshTo"#)
        do {
            _ = try await IdentityToolkitClient(apiKey: "K", options: options(transport)).signIn(email: "a", password: "b")
            Issue.record("expected an error")
        } catch let error as FirebaseDecodingError {
            #expect(error.type == "SignInResponse")
            #expect(error.status == 200)
        }
    }

    @Test func lookupWithoutUsersIsUserNotFound() async throws {
        let transport = RecordingTransport(body: #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)
        await #expect(throws: IdentityToolkitError.self) {
            _ = try await IdentityToolkitClient(apiKey: "K", options: options(transport)).lookup(idToken: "x")
        }
    }
}
