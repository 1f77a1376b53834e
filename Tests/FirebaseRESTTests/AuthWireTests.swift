import Foundation
import Testing

@testable import FirebaseREST

/// Golden wire tests for Identity Toolkit and Secure Token: method, URL, headers and body.
@Suite struct AuthWireTests {
    let signInReply = #"{"idToken":"ID","refreshToken":"RT","expiresIn":"3600","localId":"uid1","email":"a@b.c","registered":true,"displayName":"Ann"}"#

    func client(_ transport: RecordingTransport) -> IdentityToolkitClient {
        IdentityToolkitClient(apiKey: "KEY", options: options(transport))
    }

    @Test func signUpWithEmail() async throws {
        let transport = RecordingTransport(body: signInReply)
        let reply = try await client(transport).signUp(email: "a@b.c", password: "secret")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=KEY")
        #expect(request.header("content-type") == "application/json")
        #expect(try jsonBody(request) == ["email": "a@b.c", "password": "secret", "returnSecureToken": true])
        #expect(reply.idToken == "ID" && reply.refreshToken == "RT" && reply.localId == "uid1")
        let tokens = reply.tokens(issuedAt: Date(timeIntervalSince1970: 0))
        #expect(tokens.expiresAt == Date(timeIntervalSince1970: 3600))
    }

    @Test func anonymousSignUpIsBare() async throws {
        let transport = RecordingTransport(body: #"{"idToken":"I","refreshToken":"R","expiresIn":"3600","localId":"u"}"#)
        _ = try await client(transport).signUpAnonymously()
        #expect(try jsonBody(transport.last) == ["returnSecureToken": true])
    }

    @Test func signInWithPassword() async throws {
        let transport = RecordingTransport(body: signInReply)
        let reply = try await client(transport).signIn(email: "a@b.c", password: "p")
        #expect(transport.last?.rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=KEY")
        #expect(try jsonBody(transport.last) == ["email": "a@b.c", "password": "p", "returnSecureToken": true])
        #expect(reply.registered == true && reply.displayName == "Ann")
    }

    @Test func phoneFlow() async throws {
        let transport = RecordingTransport { request, index in
            index == 0
                ? response(200, #"{"sessionInfo":"SESSION"}"#)
                : response(200, #"{"idToken":"I","refreshToken":"R","expiresIn":"3600","localId":"u","isNewUser":true,"phoneNumber":"+15555550100"}"#)
        }
        let auth = client(transport)
        let session = try await auth.sendVerificationCode(.init(phoneNumber: "+15555550100", recaptchaToken: "cap"))
        #expect(session == "SESSION")
        #expect(transport.requests[0].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=KEY")
        #expect(try jsonBody(transport.requests[0]) == ["phoneNumber": "+15555550100", "recaptchaToken": "cap"])
        let reply = try await auth.signInWithPhoneNumber(sessionInfo: session, code: "123456")
        #expect(transport.requests[1].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=KEY")
        #expect(try jsonBody(transport.requests[1]) == ["sessionInfo": "SESSION", "code": "123456"])
        #expect(reply.isNewUser == true && reply.phoneNumber == "+15555550100")
    }

    @Test func phoneChangeCarriesTheIDToken() async throws {
        let transport = RecordingTransport { _, _ in
            response(200, #"{"idToken":"I2","refreshToken":"R2","expiresIn":"3600","localId":"u","phoneNumber":"+15555550199"}"#)
        }
        let reply = try await client(transport).signInWithPhoneNumber(sessionInfo: "SESSION", code: "123456", idToken: "I1")
        #expect(try jsonBody(transport.requests[0]) == ["sessionInfo": "SESSION", "code": "123456", "idToken": "I1"])
        #expect(reply.idToken == "I2" && reply.phoneNumber == "+15555550199")
    }

    @Test func lookupUpdateDelete() async throws {
        let transport = RecordingTransport { request, _ in
            if request.rawURL.contains("lookup") {
                return response(200, #"{"kind":"x","users":[{"localId":"u","email":"a@b.c","emailVerified":false,"createdAt":"1700000000000"}]}"#)
            }
            if request.rawURL.contains("update") {
                return response(200, #"{"localId":"u","email":"n@b.c","idToken":"I2","refreshToken":"R2","expiresIn":"3600"}"#)
            }
            return response(200, "{}")
        }
        let auth = client(transport)
        let user = try await auth.lookup(idToken: "ID")
        #expect(user == UserRecord(localId: "u", email: "a@b.c", emailVerified: false, createdAt: "1700000000000"))
        #expect(try jsonBody(transport.requests[0]) == ["idToken": "ID"])

        let updated = try await auth.update(
            idToken: "ID", UserUpdate(email: "n@b.c", displayName: "N", deleteAttributes: [.photoURL]))
        #expect(transport.requests[1].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:update?key=KEY")
        #expect(
            try jsonBody(transport.requests[1])
                == ["idToken": "ID", "email": "n@b.c", "displayName": "N", "deleteAttribute": ["PHOTO_URL"], "returnSecureToken": true])
        #expect(updated.tokens(issuedAt: Date(timeIntervalSince1970: 0))?.idToken == "I2")

        try await auth.delete(idToken: "ID")
        #expect(transport.requests[2].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:delete?key=KEY")
        #expect(try jsonBody(transport.requests[2]) == ["idToken": "ID"])
    }

    @Test func passwordReset() async throws {
        let transport = RecordingTransport { request, _ in
            request.rawURL.contains("sendOobCode")
                ? response(200, #"{"email":"a@b.c"}"#) : response(200, #"{"email":"a@b.c","requestType":"PASSWORD_RESET"}"#)
        }
        let auth = client(transport)
        #expect(try await auth.sendPasswordResetEmail(email: "a@b.c") == "a@b.c")
        #expect(transport.requests[0].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=KEY")
        #expect(try jsonBody(transport.requests[0]) == ["requestType": "PASSWORD_RESET", "email": "a@b.c"])
        try await auth.sendEmailVerification(idToken: "ID")
        #expect(try jsonBody(transport.requests[1]) == ["requestType": "VERIFY_EMAIL", "idToken": "ID"])
        let reset = try await auth.resetPassword(oobCode: "OOB", newPassword: "new")
        #expect(transport.requests[2].rawURL == "https://identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=KEY")
        #expect(try jsonBody(transport.requests[2]) == ["oobCode": "OOB", "newPassword": "new"])
        #expect(reset == ResetPasswordResponse(email: "a@b.c", requestType: "PASSWORD_RESET"))
    }

    @Test func refreshIsFormEncodedWithSnakeCaseReply() async throws {
        let transport = RecordingTransport(
            body: #"{"id_token":"I2","refresh_token":"R2","expires_in":"3600","token_type":"Bearer","user_id":"u","project_id":"p"}"#)
        let reply = try await client(transport).refresh(refreshToken: "a+b/c=")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == "https://securetoken.googleapis.com/v1/token?key=KEY")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "grant_type=refresh_token&refresh_token=a%2Bb%2Fc%3D")
        #expect(reply.idToken == "I2" && reply.refreshToken == "R2" && reply.userId == "u" && reply.projectId == "p")
    }

    @Test func emulatorURLs() async throws {
        let transport = RecordingTransport(body: signInReply)
        let auth = try IdentityToolkitClient.emulator(host: "127.0.0.1", port: 9099, options: options(transport))
        _ = try await auth.signIn(email: "a@b.c", password: "p")
        #expect(
            transport.last?.rawURL
                == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key")
        let refresh = RecordingTransport(body: #"{"id_token":"I","refresh_token":"R","expires_in":"3600","user_id":"u"}"#)
        _ = try await IdentityToolkitClient.emulator(host: "localhost", port: 9099, options: options(refresh))
            .refresh(refreshToken: "R")
        #expect(refresh.last?.rawURL == "http://localhost:9099/securetoken.googleapis.com/v1/token?key=fake-api-key")
    }

    @Test func additionalHeadersAreSent() async throws {
        let transport = RecordingTransport(body: signInReply)
        var opts = options(transport)
        opts.additionalHeaders = ["X-Ios-Bundle-Identifier": "com.example.app", "X-Client-Version": "Swift/REST"]
        _ = try await IdentityToolkitClient(apiKey: "K", options: opts).signIn(email: "a", password: "b")
        #expect(transport.last?.header("x-ios-bundle-identifier") == "com.example.app")
        #expect(transport.last?.header("X-Client-Version") == "Swift/REST")
    }
}
