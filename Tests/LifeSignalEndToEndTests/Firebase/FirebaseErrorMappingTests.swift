import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Every way a Firebase call can fail reaches features as the `DomainError` it means: canned
/// wire failures for the platform's own answers, and the replayed backend for ours.
@Suite("Firebase error mapping")
struct FirebaseErrorMappingTests {
    /// Answers every request with one canned response (or by throwing, for transport failures).
    struct CannedTransport: FirebaseHTTPTransport {
        let respond: @Sendable (FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse
        func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse { try await respond(request) }
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var status: Int
        var body: String
        var expected: DomainError
    }

    static func callableError(_ status: String, _ message: String, details: String? = nil) -> String {
        #"{"error":{"status":"\#(status)","message":"\#(message)"\#(details.map { #","details":\#($0)"# } ?? "")}}"#
    }

    static let callableCases: [Case] = [
        Case(description: "401 UNAUTHENTICATED", status: 401, body: callableError("UNAUTHENTICATED", "Unauthenticated"), expected: .unauthenticated),
        Case(description: "404 NOT_FOUND", status: 404, body: callableError("NOT_FOUND", "User 7 was not found"), expected: .notFound("User 7")),
        Case(description: "404 page of a function not deployed", status: 404, body: "<html>Page not found</html>", expected: .notFound("The function")),
        Case(
            description: "400 INVALID_ARGUMENT", status: 400, body: callableError("INVALID_ARGUMENT", "limit must be positive"),
            expected: .invalidArgument("limit must be positive")),
        Case(
            description: "400 FAILED_PRECONDITION", status: 400, body: callableError("FAILED_PRECONDITION", "Not a dependent"),
            expected: .failedPrecondition("Not a dependent")),
        Case(description: "403 PERMISSION_DENIED", status: 403, body: callableError("PERMISSION_DENIED", "Not yours"), expected: .forbidden("Not yours")),
        Case(
            description: "409 ALREADY_EXISTS", status: 409, body: callableError("ALREADY_EXISTS", "Contact x already exists"),
            expected: .alreadyExists("Contact x")),
        Case(description: "429 RESOURCE_EXHAUSTED", status: 429, body: callableError("RESOURCE_EXHAUSTED", "Slow down"), expected: .rateLimited(retryAfter: 0)),
        Case(description: "500 INTERNAL", status: 500, body: callableError("INTERNAL", "INTERNAL"), expected: .internal("INTERNAL")),
        Case(description: "503 without a body", status: 503, body: "", expected: .internal("HTTP 503")),
        Case(
            description: "details.code rebuilds the precise error", status: 400,
            body: callableError("FAILED_PRECONDITION", "Wait", details: #"{"code":"check_in_too_soon","retryAfter":42}"#),
            expected: .checkInTooSoon(retryAfter: 42)),
        Case(description: "200 with a body that is not JSON", status: 200, body: "<html>proxy</html>", expected: .internal("")),
        Case(description: "200 with a result of the wrong shape", status: 200, body: #"{"result":{"success":true}}"#, expected: .internal("")),
    ]

    @Test("callable failures become the domain error they mean", arguments: callableCases)
    func callable(_ failure: Case) async throws {
        let adapters = AdapterHarness.firebaseAdapters(
            transport: CannedTransport { _ in
                FirebaseHTTPResponse(status: failure.status, headers: ["Content-Type": "application/json"], body: Data(failure.body.utf8))
            })
        do {
            // A callable (the contact list itself is read from Firestore).
            _ = try await adapters.contactsClient.addByQRCode(UUID(), .responder)
            Issue.record("expected \(failure.expected)")
        } catch let error as DomainError {
            if case .internal = failure.expected {
                #expect(error.code == "internal", "\(error)")
            } else {
                #expect(error == failure.expected)
            }
        }
    }

    @Test("a transport timeout and a dropped connection are internal errors, not hangs")
    func transportFailures() async throws {
        let slow = AdapterHarness.firebaseAdapters(
            transport: CannedTransport { _ in
                try await Task.sleep(for: .seconds(10))
                return FirebaseHTTPResponse(status: 200)
            }, timeout: .milliseconds(100))
        let started = ContinuousClock.now
        await #expect { _ = try await slow.checkInClient.checkIn() } throws: { error in
            (error as? DomainError)?.code == "internal" && (error as? DomainError)?.message.contains("did not answer") == true
        }
        #expect(ContinuousClock.now - started < .seconds(30), "a bound against a hang, not a speed check")

        let refused = AdapterHarness.firebaseAdapters(
            transport: CannedTransport { _ in
                throw FirebaseTransportError.network(message: "connection refused")
            })
        await #expect { _ = try await refused.contactsClient.addByQRCode(UUID(), .responder) } throws: { error in
            (error as? DomainError)?.message.contains("connection refused") == true
        }
    }

    @Test("Identity Toolkit refusals: wrong code, expired session, bad number, no code sent")
    func identityToolkit() async throws {
        func answering(_ message: String) -> FirebaseAdapters {
            AdapterHarness.firebaseAdapters(
                transport: CannedTransport { request in
                    let reply =
                        request.url.path.hasSuffix("sendVerificationCode")
                        ? #"{"sessionInfo":"abc"}"# : #"{"error":{"code":400,"message":"\#(message)"}}"#
                    return FirebaseHTTPResponse(status: reply.contains("error") ? 400 : 200, body: Data(reply.utf8))
                })
        }
        let phone = try PhoneNumber("+15550003003")
        let code = try OneTimeCode("123456")
        let expectations: [(String, DomainError)] = [
            ("INVALID_CODE", .invalidOTP), ("SESSION_EXPIRED", .otpExpired), ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyAttempts),
            ("INVALID_PHONE_NUMBER : TOO_SHORT", .invalidPhone("TOO_SHORT")),
        ]
        for (message, expected) in expectations {
            let auth = answering(message).authClient
            try await auth.sendCode(phone)
            await #expect(throws: expected, "\(message)") { _ = try await auth.verifyCode(phone, code) }
        }
        // No code was asked for this number: nothing to verify against.
        await #expect(throws: DomainError.otpExpired) { _ = try await answering("INVALID_CODE").authClient.verifyCode(phone, code) }
        // A phone change: a wrong code and a number another account holds, as GoTrue reports them.
        for (message, expected) in [("INVALID_CODE", "invalid_otp"), ("PHONE_NUMBER_EXISTS", "already_exists")] {
            let adapters = answering(message)
            await adapters.tokens.replace(with: AuthTokens(idToken: "I", refreshToken: "R", expiresAt: Date().addingTimeInterval(3600), localId: "u"))
            try await adapters.authClient.requestPhoneChange(phone)
            await #expect(
                "\(message)", performing: { _ = try await adapters.authClient.confirmPhoneChange(phone, code) },
                throws: { error in
                    (error as? DomainError)?.code == expected
                })
        }
    }

    @Test("replayed: our functions' refusals arrive precisely; a wrong code and an expired token too")
    func replayed() async throws {
        let phone = "+15550003004"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=314159"))
        defer { Task { try? await test.backend.close() } }
        let adapters = AdapterHarness.firebaseAdapters(test.backend)
        let auth = adapters.authClient
        try await auth.sendCode(try PhoneNumber(phone))
        await #expect(throws: DomainError.invalidOTP) { _ = try await auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("000000")) }
        let session = try await auth.verifyCode(try PhoneNumber(phone), try OneTimeCode("314159"))
        #expect(session.isNewUser && session.phone.e164 == phone)
        #expect(await auth.currentSession() == session)

        _ = try await adapters.checkInClient.checkIn()
        await #expect { _ = try await adapters.checkInClient.checkIn() } throws: { error in
            guard case .checkInTooSoon(let wait) = error as? DomainError else { return false }
            return wait > 0
        }
        await #expect(throws: DomainError.invalidArgument("limit must be between 1 and 500, not 0")) {
            _ = try await adapters.checkInClient.history(0)
        }
        await #expect(throws: DomainError.notFound("QR code")) { _ = try await adapters.contactsClient.lookUpQRCode(UUID()) }

        // The backend's clock passes the token's expiry (the device's has not, so no refresh).
        test.clock.advance(by: 7200)
        await #expect(throws: DomainError.unauthenticated) { _ = try await adapters.userClient.profile() }
        try await auth.signOut()
        #expect(await auth.currentSession() == nil)
        await #expect(throws: DomainError.unauthenticated) { _ = try await adapters.userClient.profile() }
    }
}
