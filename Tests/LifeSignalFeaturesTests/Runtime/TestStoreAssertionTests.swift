import Clocks
import Dependencies
import Testing

@testable import LifeSignalFeatures

/// The test store passes correct tests and reports every kind of mistake.
@MainActor
@Suite(.reportsIssues) struct TestStoreAssertionTests {
    @Test func passesWhenStateMatches() async {
        let store = TestStore(initialState: Counter.State()) { Counter() }
        await store.send(.increment) { $0.count = 1 }
        await store.send(.noop)
        #expect(store.state.count == 1)
        await store.finish()
    }

    @Test func reportsStateThatDiffersFromExpectation() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.increment) { $0.count = 2 }
            await store.finish()
        } matching: { issue in
            issue.description.contains("A state change does not match expectation")
                && issue.description.contains("count: 2")
        }
    }

    @Test func reportsUnassertedStateChange() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.increment)
            await store.finish()
        } matching: {
            $0.description.contains("State was not expected to change")
        }
    }

    @Test func reportsClosureThatExpectsNoChange() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.noop) { $0.count = 0 }
            await store.finish()
        } matching: {
            $0.description.contains("Expected state to change, but no change occurred")
        }
    }

    @Test func receivesActionsSentByEffects() async {
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.numberSource.next = { 42 }
        }
        await store.send(.fetch)
        await store.receive(.fetched(42)) { $0.count = 42 }
        await store.finish()
    }

    @Test func receivesSynchronousSendsInOrder() async {
        let store = TestStore(initialState: Counter.State()) { Counter() }
        await store.send(.incrementTwiceViaSend)
        await store.receive(.increment) { $0.count = 1 }
        await store.receive(matching: { $0 == .increment }) { $0.count = 2 }
        await store.finish()
    }

    @Test func reportsActionNeverReceived() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) {
                Counter()
            } withDependencies: {
                $0.numberSource.next = { 7 }
            }
            await store.send(.fetch)
            try? await Task.sleep(for: .milliseconds(50))
            await store.finish()
        } matching: {
            $0.description.contains("received 1 unexpected action")
        }
    }

    @Test func reportsSendWithUnhandledReceivedActions() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.incrementTwiceViaSend)
            await store.send(.noop)
            await store.finish()
        } matching: {
            $0.description.contains("Must handle 2 received action(s)")
        }
    }

    @Test func reportsWrongReceivedAction() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) {
                Counter()
            } withDependencies: {
                $0.numberSource.next = { 7 }
            }
            await store.send(.fetch)
            await store.receive(.fetched(8)) { $0.count = 7 }
            await store.finish()
        } matching: {
            $0.description.contains("Received unexpected action")
        }
    }

    @Test func reportsReceiveTimeout() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.noop)
            await store.receive(.increment, timeout: .milliseconds(50)) { $0.count = 1 }
            await store.finish()
        } matching: {
            $0.description.contains("Expected to receive")
        }
    }

    @Test func reportsEffectStillRunningAtFinish() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) {
                Counter()
            } withDependencies: {
                $0.continuousClock = TestClock()
            }
            await store.send(.startTimer)
            await store.finish(timeout: .milliseconds(50))
        } matching: {
            $0.description.contains("effect(s) are still running")
        }
    }

    @Test func reportsEffectStillRunningWhenReleased() async {
        await withKnownIssue {
            await {
                let store = TestStore(initialState: Counter.State()) {
                    Counter()
                } withDependencies: {
                    $0.continuousClock = TestClock()
                }
                await store.send(.startTimer)
            }()
        } matching: {
            $0.description.contains("effect(s) are still running")
        }
    }

    @Test func reportsUnhandledEffectError() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            await store.send(.throwUnhandled).finish()
            await store.finish()
        } matching: {
            $0.description.contains("threw an unhandled error")
        }
    }

    @Test func catchHandlerTurnsErrorsIntoActions() async {
        let store = TestStore(initialState: Counter.State()) { Counter() }
        await store.send(.throwHandled)
        await store.receive(.failed("Boom()")) { $0.log = ["Boom()"] }
        await store.finish()
    }

    @Test func reportsUnimplementedDependency() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter.State()) { Counter() }
            // `continuousClock` is not overridden: its test value fails when used.
            await store.send(.delayedLog("x", seconds: 1))
            await store.send(.noop)
            await store.finish(timeout: .milliseconds(50))
        }
    }

    @Test func nonExhaustiveChecksOnlyWhatIsAsserted() async {
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.numberSource.next = { 5 }
            $0.continuousClock = TestClock()
        }
        store.exhaustivity = .off
        await store.send(.increment)
        await store.send(.incrementTwiceViaSend)
        #expect(store.state.count == 1)
        await store.send(.fetch)
        #expect(store.state.count == 3)
        await store.receive(.fetched(5)) { $0.count = 5 }
        await store.send(.startTimer)
        await store.finish(timeout: .milliseconds(10))
    }
}
