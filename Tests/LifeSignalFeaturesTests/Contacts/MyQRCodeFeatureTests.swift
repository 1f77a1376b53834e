import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The "My QR code" screen: the code is fetched when the screen appears, replaced when it
/// expires (on a test clock: nothing sleeps for real), renewed on demand, and forgotten by the
/// timer when the screen goes away.
@MainActor
@Suite(.reportsIssues) struct MyQRCodeFeatureTests {
    let wall = LockIsolated(Fixtures.start)
    let clock = TestClock()

    nonisolated static func code(_ n: Int, expiresIn seconds: TimeInterval) -> QRCode {
        QRCode(id: ContactsFeatureTests.uuid(500 + n), expiresAt: Fixtures.start.addingTimeInterval(seconds))
    }

    func makeStore(_ state: MyQRCodeFeature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<MyQRCodeFeature.State, MyQRCodeFeature.Action>
    {
        TestStore(initialState: state) {
            MyQRCodeFeature()
        } withDependencies: { [wall, clock] in
            $0.date = DateGenerator { wall.value }
            $0.continuousClock = clock
            dependencies(&$0)
        }
    }

    @Test func theCodeIsShownAndReplacedWhenItExpires() async {
        let first = Self.code(1, expiresIn: 600)
        let second = Self.code(2, expiresIn: 1200)
        let codes = LockIsolated([first, second])
        let store = makeStore {
            $0.contactsClient.qrCode = { codes.withValue { $0.removeFirst() } }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(first))) {
            $0.isLoading = false
            $0.code = first
        }
        // A second short of the expiry nothing happens; at the expiry the next code is asked for.
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(599))
        wall.setValue(first.expiresAt)
        await clock.advance(by: .seconds(1))
        await store.receive(.expired) {
            $0.code = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(second))) {
            $0.isLoading = false
            $0.code = second
        }
        #expect(codes.value.isEmpty)
        // Gone from the screen: no more waiting, no more asking.
        await store.send(.onDisappear)
        await clock.advance(by: .seconds(3600))
        await store.finish()
    }

    @Test func aCodeThatLooksExpiredOnThisClockIsAskedAgainOnlyAfterAPause() async {
        // The phone's clock runs ahead of the server's: the code looks expired already.
        let early = Self.code(1, expiresIn: -30)
        let next = Self.code(2, expiresIn: 600)
        let codes = LockIsolated([early, next])
        let store = makeStore { $0.contactsClient.qrCode = { codes.withValue { $0.removeFirst() } } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(early))) {
            $0.isLoading = false
            $0.code = early
        }
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(4))
        #expect(codes.value == [next])
        await clock.advance(by: .seconds(1))
        await store.receive(.expired) {
            $0.code = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(next))) {
            $0.isLoading = false
            $0.code = next
        }
        await store.send(.onDisappear)
        await store.finish()
    }

    @Test func aNewCodeReplacesTheOneShownAndRestartsItsTimer() async {
        let shown = Self.code(1, expiresIn: 600)
        let fresh = Self.code(2, expiresIn: 900)
        let resets = LockIsolated(0)
        let gate = ContactsFeatureTests.Gate()
        let store = makeStore {
            $0.contactsClient.qrCode = { shown }
            $0.contactsClient.resetQRCode = {
                resets.withValue { $0 += 1 }
                await gate.wait()
                return fresh
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(shown))) {
            $0.isLoading = false
            $0.code = shown
        }
        await store.send(.newCodeTapped) { $0.isLoading = true }
        // A second tap while the first is out asks nothing.
        await store.send(.newCodeTapped)
        gate.open()
        await store.receive(.loaded(.success(fresh))) {
            $0.isLoading = false
            $0.code = fresh
        }
        #expect(resets.value == 1)
        // The old code's expiry no longer counts: only the new one's does.
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(600))
        await store.send(.onDisappear)
        await store.finish()
    }

    @Test func aFailureIsExplainedAndTheScreenCanTryAgain() async {
        let attempts = LockIsolated(0)
        let code = Self.code(1, expiresIn: 600)
        let store = makeStore(.init(errorMessage: "Earlier")) {
            $0.contactsClient.qrCode = {
                let attempt = attempts.withValue {
                    $0 += 1
                    return $0
                }
                guard attempt > 1 else { throw DomainError.unauthenticated }
                return code
            }
        }
        await store.send(.task) {
            $0.isLoading = true
            $0.errorMessage = nil
        }
        await store.receive(.loaded(.failure(.unauthenticated))) {
            $0.isLoading = false
            $0.errorMessage = "Sign in first"
        }
        await store.send(.errorDismissed) { $0.errorMessage = nil }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(code))) {
            $0.isLoading = false
            $0.code = code
        }
        await store.send(.onDisappear)
        await store.finish()
    }
}
