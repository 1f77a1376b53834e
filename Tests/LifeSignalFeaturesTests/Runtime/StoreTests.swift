import Clocks
import Dependencies
import Testing

@testable import LifeSignalFeatures

/// The live store: dependency inheritance, transitive `finish`, cancellation on release, and
/// composition with `Scope`.
@MainActor
@Suite(.reportsIssues) struct StoreTests {
    @Test func effectsInheritDependenciesOfTheCreationContext() async {
        let store = withDependencies {
            $0.numberSource.next = { 99 }
        } operation: {
            Store(initialState: Counter.State()) { Counter() }
        }
        // The override is long gone by now; the effect must still see it.
        await store.send(.fetch).finish()
        #expect(store.state.count == 99)
    }

    @Test func withDependenciesParameterOverrides() async {
        let store = Store(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.numberSource.next = { 7 }
        }
        await store.send(.fetch).finish()
        #expect(store.state.count == 7)
    }

    @Test func finishWaitsForEffectsOfEffects() async {
        let store = Store(initialState: Parent.State()) {
            Parent()
        } withDependencies: {
            $0.numberSource.next = { 3 }
            $0.continuousClock = ImmediateClock()
        }
        // `.fetchThenLog` fetches; the response starts another effect; finish awaits both.
        await store.send(.fetchThenLog).finish()
        #expect(store.state.counter.count == 3)
        #expect(store.state.counter.log == ["after 3"])
    }

    @Test func cancellationByIDStopsATimer() async {
        let clock = TestClock()
        let store = Store(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        let timer = store.send(.startTimer)
        // One second at a time, waiting each time for the timer to sleep again: that is when
        // its tick has been sent. A single two-second jump can outrun the re-arming.
        for _ in 0..<2 {
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(1))
        }
        await clock.waitForSleepers()
        store.send(.stopTimer)
        await timer.finish()
        await clock.advance(by: .seconds(5))
        #expect(store.state.count == 2)
    }

    @Test func releasingTheStoreCancelsItsEffects() async {
        let clock = TestClock()
        var store: Store<Counter.State, Counter.Action>? = Store(initialState: Counter.State()) {
            Counter()
        } withDependencies: {
            $0.continuousClock = clock
        }
        let timer = store?.send(.startTimer)
        await clock.waitForSleepers()
        store = nil
        // Would never return if the timer were still running.
        await timer?.finish()
    }

    @Test func scopeRunsTheChildOnItsSliceOfState() async {
        let store = TestStore(initialState: Parent.State()) {
            Parent()
        } withDependencies: {
            $0.numberSource.next = { 4 }
            $0.continuousClock = ImmediateClock()
        }
        await store.send(.counter(.increment)) {
            $0.counter.count = 1
            $0.childActions = 1
        }
        await store.send(.counter(.fetch)) { $0.childActions = 2 }
        await store.receive(.counter(.fetched(4))) {
            $0.counter.count = 4
            $0.childActions = 3
        }
        await store.receive(.counter(.logged("after 4"))) { $0.counter.log = ["after 4"] }
        await store.finish()
    }
}

/// A parent that embeds ``Counter`` with `Scope` and adds its own logic with `Reduce`.
struct Parent: Reducer {
    struct State: Equatable, Sendable {
        var counter = Counter.State()
        var childActions = 0
    }

    enum Action: Equatable, Sendable {
        case counter(Counter.Action)
        case fetchThenLog
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        CombineReducers {
            Scope(
                state: \State.counter,
                action: { action in
                    if case .counter(let child) = action { child } else { nil }
                }, embed: Action.counter
            ) {
                Counter()
            }
            Reduce<State, Action> { [clock] state, action in
                switch action {
                case .counter(.fetched(let value)):
                    state.childActions += 1
                    return .run { send in
                        try await clock.sleep(for: .seconds(1))
                        await send(.counter(.logged("after \(value)")))
                    }
                case .counter(.logged):
                    return .none
                case .counter:
                    state.childActions += 1
                    return .none
                case .fetchThenLog:
                    return .send(.counter(.fetch))
                }
            }
        }
        .reduce(into: &state, action: action)
    }
}
