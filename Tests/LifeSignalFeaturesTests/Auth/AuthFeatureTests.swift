import Clocks
import ConcurrencyExtras
import Dependencies
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Every action and error path of signing in by phone. `authClient` endpoints that a test does
/// not override fail when called, so each test also proves which requests are (not) made.
@MainActor
@Suite(.reportsIssues) struct AuthFeatureTests {
    @Test func signsInWithPhoneAndCode() async throws {
        let phone = try Fixtures.phone()
        let session = try Fixtures.session()
        let store = TestStore(initialState: AuthFeature.State()) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.sendCode = { sentTo in #expect(sentTo == phone) }
            $0.authClient.verifyCode = { sentTo, code in
                #expect(sentTo == phone)
                #expect(code.value == "123456")
                return session
            }
        }
        await store.send(.phoneChanged("+1 (555) 000-1111")) { $0.phoneText = "+1 (555) 000-1111" }
        await store.send(.sendCodeTapped) { $0.isSending = true }
        await store.receive(.codeSent(phone)) {
            $0.isSending = false
            $0.step = .enterCode(phone)
        }
        await store.send(.codeChanged("123456")) { $0.codeText = "123456" }
        await store.send(.verifyTapped) {
            $0.isSending = true
            $0.attempts = 1
        }
        await store.receive(.verified(session)) {
            $0.isSending = false
            $0.step = .signedIn(session)
            $0.codeText = ""
            $0.attempts = 0
        }
        #expect(store.state.session == session)
        await store.finish()
    }

    @Test func invalidPhoneIsRefusedWithoutARequest() async {
        let store = TestStore(initialState: AuthFeature.State(phoneText: "555-0001")) { AuthFeature() }
        await store.send(.sendCodeTapped) {
            $0.errorMessage = "\"555-0001\" is not a United States number: it should have 10 digits"
        }
        await store.send(.phoneChanged("+1555")) { $0.phoneText = "+1555" }
        await store.send(.sendCodeTapped) { $0.errorMessage = DomainError.invalidPhone("+1555").message }
        await store.send(.phoneChanged("+15550001111")) { $0.phoneText = "+15550001111" }
        await store.finish()
    }

    @Test func aNumberTypedTheLocalWayIsReadInThePickedRegion() async throws {
        let uk = try #require(PhoneRegion.named("gb"))
        let sent = LockIsolated<[PhoneNumber]>([])
        let store = TestStore(initialState: AuthFeature.State(phoneText: "07700 900123")) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.sendCode = { phone in sent.withValue { $0.append(phone) } }
        }
        // Read as a US number it has 11 digits, one too many.
        await store.send(.sendCodeTapped) {
            $0.errorMessage = "\"07700 900123\" is not a United States number: it should have 10 digits"
        }
        await store.send(.regionChanged(uk)) {
            $0.region = uk
            $0.errorMessage = nil
        }
        await store.send(.sendCodeTapped) { $0.isSending = true }
        let phone = try PhoneNumber("+447700900123")
        await store.receive(.codeSent(phone)) {
            $0.isSending = false
            $0.step = .enterCode(phone)
        }
        #expect(sent.value == [phone])
        await store.finish()
    }

    @Test func sendCodeFailureIsShown() async throws {
        let store = TestStore(initialState: AuthFeature.State(phoneText: "+15550001111")) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.sendCode = { _ in throw DomainError.rateLimited(retryAfter: 30) }
        }
        await store.send(.sendCodeTapped) { $0.isSending = true }
        await store.receive(.sendCodeFailed(.rateLimited(retryAfter: 30))) {
            $0.isSending = false
            $0.errorMessage = "Too many requests; retry in 30 s"
        }
        await store.finish()
    }

    @Test func nonDomainErrorsBecomeInternalErrors() async throws {
        struct Offline: Error {}
        let store = TestStore(initialState: AuthFeature.State(phoneText: "+15550001111")) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.sendCode = { _ in throw Offline() }
        }
        await store.send(.sendCodeTapped) { $0.isSending = true }
        await store.receive(.sendCodeFailed(.internal("Offline()"))) {
            $0.isSending = false
            $0.errorMessage = "Internal error: Offline()"
        }
        await store.finish()
    }

    @Test func tapsWhileSendingAreIgnored() async throws {
        let phone = try Fixtures.phone()
        // The SMS request is held on a test clock so the second tap lands while it is in flight.
        let network = TestClock()
        let store = TestStore(initialState: AuthFeature.State(phoneText: "+15550001111")) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.sendCode = { _ in try await network.sleep(for: .seconds(1)) }
        }
        await store.send(.sendCodeTapped) { $0.isSending = true }
        await store.send(.sendCodeTapped)
        await network.waitForSleepers()
        await network.advance(by: .seconds(1))
        await store.receive(.codeSent(phone)) {
            $0.isSending = false
            $0.step = .enterCode(phone)
        }
        await store.finish()
    }

    @Test func malformedCodeIsRefusedWithoutARequest() async throws {
        let phone = try Fixtures.phone()
        let store = TestStore(initialState: AuthFeature.State(codeText: "12a4", step: .enterCode(phone))) {
            AuthFeature()
        }
        await store.send(.verifyTapped) { $0.errorMessage = DomainError.invalidOTP.message }
        await store.finish()
    }

    @Test func verifyOutsideTheCodeStepDoesNothing() async {
        let store = TestStore(initialState: AuthFeature.State(codeText: "123456")) { AuthFeature() }
        await store.send(.verifyTapped)
        await store.send(.changePhoneTapped)
        await store.send(.signOutTapped)
        await store.finish()
    }

    @Test func wrongCodeCanBeRetried() async throws {
        let phone = try Fixtures.phone()
        let session = try Fixtures.session()
        let calls = LockIsolated(0)
        let store = TestStore(initialState: AuthFeature.State(codeText: "111111", step: .enterCode(phone))) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.verifyCode = { _, code in
                calls.withValue { $0 += 1 }
                guard code.value == "123456" else { throw DomainError.invalidOTP }
                return session
            }
        }
        await store.send(.verifyTapped) {
            $0.isSending = true
            $0.attempts = 1
        }
        await store.receive(.verifyFailed(.invalidOTP)) {
            $0.isSending = false
            $0.errorMessage = DomainError.invalidOTP.message
            $0.codeText = ""
        }
        await store.send(.codeChanged("123456")) { $0.codeText = "123456" }
        await store.send(.verifyTapped) {
            $0.isSending = true
            $0.errorMessage = nil
            $0.attempts = 2
        }
        await store.receive(.verified(session)) {
            $0.isSending = false
            $0.step = .signedIn(session)
            $0.codeText = ""
            $0.attempts = 0
        }
        #expect(calls.value == 2)
        await store.finish()
    }

    @Test(arguments: [DomainError.otpExpired, .tooManyAttempts])
    func deadCodeSendsThePersonBackToRequestANewOne(error: DomainError) async throws {
        let phone = try Fixtures.phone()
        let store = TestStore(
            initialState: AuthFeature.State(
                phoneText: "+15550001111", codeText: "123456", step: .enterCode(phone), attempts: 2)
        ) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.verifyCode = { _, _ in throw error }
        }
        await store.send(.verifyTapped) {
            $0.isSending = true
            $0.attempts = 3
        }
        await store.receive(.verifyFailed(error)) {
            $0.isSending = false
            $0.errorMessage = error.message
            $0.codeText = ""
            $0.step = .enterPhone
            $0.attempts = 0
        }
        await store.finish()
    }

    @Test func changePhoneGoesBackToTheFirstStep() async throws {
        let phone = try Fixtures.phone()
        let store = TestStore(
            initialState: AuthFeature.State(
                phoneText: "+15550001111", codeText: "12", step: .enterCode(phone), errorMessage: "x",
                attempts: 1)
        ) {
            AuthFeature()
        }
        await store.send(.changePhoneTapped) {
            $0.step = .enterPhone
            $0.codeText = ""
            $0.attempts = 0
            $0.errorMessage = nil
        }
        await store.finish()
    }

    @Test func signOutClearsEverything() async throws {
        let session = try Fixtures.session()
        let store = TestStore(
            initialState: AuthFeature.State(phoneText: "+15550001111", step: .signedIn(session))
        ) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.signOut = {}
        }
        await store.send(.signOutTapped) { $0.isSending = true }
        await store.receive(.signedOut) { $0 = AuthFeature.State() }
        await store.finish()
    }

    @Test func failedSignOutKeepsTheSession() async throws {
        let session = try Fixtures.session()
        let store = TestStore(initialState: AuthFeature.State(step: .signedIn(session))) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.signOut = { throw DomainError.internal("network down") }
        }
        await store.send(.signOutTapped) { $0.isSending = true }
        await store.receive(.signOutFailed(.internal("network down"))) {
            $0.isSending = false
            $0.errorMessage = "Internal error: network down"
        }
        #expect(store.state.session == session)
        await store.finish()
    }

    @Test func taskRestoresAKeptSession() async throws {
        let session = try Fixtures.session()
        let store = TestStore(initialState: AuthFeature.State()) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.currentSession = { session }
        }
        await store.send(.task)
        await store.receive(.sessionRestored(session)) { $0.step = .signedIn(session) }
        await store.finish()
    }

    @Test func taskWithoutASessionStaysOnThePhoneStep() async {
        let store = TestStore(initialState: AuthFeature.State()) {
            AuthFeature()
        } withDependencies: {
            $0.authClient.currentSession = { nil }
        }
        await store.send(.task)
        await store.receive(.sessionRestored(nil))
        await store.finish()
    }
}
