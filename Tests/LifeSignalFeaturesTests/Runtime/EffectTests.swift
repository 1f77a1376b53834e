import Clocks
import Dependencies
import Testing

@testable import LifeSignalFeatures

/// Cancellation, merging and ordering of effects, driven by a test clock.
@MainActor
@Suite(.reportsIssues) struct EffectTests {
    @Test func timerTicksUntilCancelled() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.startTimer)
        for count in 1...3 {
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(1))
            await store.receive(.tick) { $0.count = count }
        }
        await store.send(.stopTimer)
        await clock.advance(by: .seconds(10))
        await store.finish()
    }

    @Test func cancelInFlightKeepsOneTimer() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.startTimer)
        await store.send(.startTimer)
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        // One tick, not two: the first timer was cancelled when the second started.
        await store.receive(.tick) { $0.count = 1 }
        await store.send(.stopTimer)
        await store.finish()
    }

    @Test func cancelledEffectNeverDeliversItsResult() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.delayedLog("late", seconds: 5))
        await clock.waitForSleepers()
        await store.send(.stopTimer)  // a different id: must not cancel the delayed log
        await clock.advance(by: .seconds(5))
        await store.receive(.logged("late")) { $0.log = ["late"] }

        await store.send(.delayedLog("never", seconds: 5))
        await clock.waitForSleepers()
        let task = await store.send(.noop)
        #expect(!task.isCancelled)
        await store.send(.throwHandled)
        await store.receive(.failed("Boom()")) { $0.log = ["late", "Boom()"] }
        store.skipInFlightEffects()
        await clock.advance(by: .seconds(5))
        await store.finish()
    }

    @Test func mergeRunsEffectsConcurrently() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.mergeTwo)
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        await store.receive(.logged("fast")) { $0.log = ["fast"] }
        await clock.advance(by: .seconds(1))
        await store.receive(.logged("slow")) { $0.log = ["fast", "slow"] }
        await store.finish()
    }

    @Test func concatenateRunsEffectsInOrder() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.concatenateTwo)
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(2))
        await store.receive(.logged("first")) { $0.log = ["first"] }
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        await store.receive(.logged("second")) { $0.log = ["first", "second"] }
        await store.finish()
    }

    @Test func sendTaskFinishWaitsForTheEffects() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        let task = await store.send(.delayedLog("done", seconds: 1))
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        await task.finish()
        await store.receive(.logged("done")) { $0.log = ["done"] }
        await store.finish()
    }

    @Test func testStoreTaskCancelStopsTheEffect() async {
        let clock = TestClock()
        let store = TestStore(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        let timer = await store.send(.startTimer)
        await timer.cancel()
        #expect(timer.isCancelled)
        await clock.advance(by: .seconds(3))
        await store.finish()
    }

    @Test func mapTransformsSentActions() async {
        let effect = Effect<Int>.merge(
            .send(1),
            .run { send in await send(2) }
        )
        .map { "\($0)" }
        let store = Store(initialState: [String]()) {
            Reduce<[String], String> { state, action in
                state.append(action)
                return action == "start" ? effect : .none
            }
        }
        await store.send("start").finish()
        #expect(store.state == ["start", "1", "2"])
    }
}
