import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Synchronization
import Testing

/// A code the SMS provider did not take never reached the phone: asking again right away must
/// work, not wait out the resend interval.
@Suite("Sign-in codes when the SMS provider fails")
struct SMSFailureTests {
    /// Fails its first `failures` sends, then records every code it is given.
    final class FlakySender: SMSSender {
        private let state: Mutex<(failures: Int, codes: [String])>

        init(failures: Int) { state = Mutex((failures, [])) }

        func send(code: OneTimeCode, to phone: PhoneNumber) async throws {
            let fail = state.withLock { state -> Bool in
                guard state.failures > 0 else {
                    state.codes.append(code.value)
                    return false
                }
                state.failures -= 1
                return true
            }
            if fail { throw DomainError.internal("The code could not be sent by SMS; try again shortly") }
        }

        var codes: [String] { state.withLock { $0.codes } }
    }

    @Test("a failed send leaves no pending code, so the retry goes out at once and signs in", arguments: Engine.allCases)
    func retryAfterFailure(engine: Engine) async throws {
        let sender = FlakySender(failures: 1)
        let test = try await TestDatabases.backend(engine) { $0.smsSender = sender }
        defer { Task { try? await test.backend.close() } }
        await #expect(throws: DomainError.self) { try await test.backend.auth.requestCode(phone: "+15550004001") }
        #expect(try await test.count("auth_one_time_codes") == 0)
        try await test.backend.auth.requestCode(phone: "+15550004001")
        let code = try #require(sender.codes.last)
        let session = try await test.backend.auth.verifyCode(phone: "+15550004001", code: code)
        #expect(session.user.phone?.e164 == "+15550004001")
        // A code that did go out still holds off the next one for the resend interval.
        try await test.backend.auth.requestCode(phone: "+15550004002")
        await #expect(throws: DomainError.self) { try await test.backend.auth.requestCode(phone: "+15550004002") }
    }
}
