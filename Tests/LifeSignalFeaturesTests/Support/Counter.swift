import Clocks
import Dependencies
import Foundation

@testable import LifeSignalFeatures

/// A dependency the runtime tests override to see which context an effect runs in.
struct NumberSource: TestDependencyKey, Sendable {
    var next: @Sendable () async -> Int
    static let testValue = NumberSource { 0 }
}

extension DependencyValues {
    var numberSource: NumberSource {
        get { self[NumberSource.self] }
        set { self[NumberSource.self] = newValue }
    }
}

/// A small reducer that exercises every kind of effect the runtime supports.
struct Counter: Reducer {
    struct State: Equatable, Sendable {
        var count = 0
        var log: [String] = []
    }

    enum Action: Equatable, Sendable {
        case increment
        case incrementTwiceViaSend
        case fetch
        case fetched(Int)
        case startTimer
        case stopTimer
        case tick
        case mergeTwo
        case concatenateTwo
        case logged(String)
        case delayedLog(String, seconds: Int)
        case throwUnhandled
        case throwHandled
        case failed(String)
        case noop
    }

    enum CancelID { case timer, delayed }

    struct Boom: Error {}

    @Dependency(\.numberSource) var numberSource
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .incrementTwiceViaSend:
            return .merge(.send(.increment), .send(.increment))
        case .fetch:
            return .run { send in await send(.fetched(await numberSource.next())) }
        case .fetched(let value):
            state.count = value
            return .none
        case .startTimer:
            return .run { send in
                while true {
                    try await clock.sleep(for: .seconds(1))
                    await send(.tick)
                }
            }
            .cancellable(id: CancelID.timer, cancelInFlight: true)
        case .stopTimer:
            return .cancel(id: CancelID.timer)
        case .tick:
            state.count += 1
            return .none
        case .mergeTwo:
            return .merge(
                .run { send in
                    try await clock.sleep(for: .seconds(2))
                    await send(.logged("slow"))
                },
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.logged("fast"))
                }
            )
        case .concatenateTwo:
            return .concatenate(
                .run { send in
                    try await clock.sleep(for: .seconds(2))
                    await send(.logged("first"))
                },
                .run { send in
                    try await clock.sleep(for: .seconds(1))
                    await send(.logged("second"))
                }
            )
        case .logged(let entry):
            state.log.append(entry)
            return .none
        case .delayedLog(let entry, let seconds):
            return .run { send in
                try await clock.sleep(for: .seconds(seconds))
                await send(.logged(entry))
            }
            .cancellable(id: CancelID.delayed)
        case .throwUnhandled:
            return .run { _ in throw Boom() }
        case .throwHandled:
            return .run { _ in
                throw Boom()
            } catch: { error, send in
                await send(.failed("\(error)"))
            }
        case .failed(let message):
            state.log.append(message)
            return .none
        case .noop:
            return .none
        }
    }
}

extension TestClock<Duration> {
    /// Waits (in real time, briefly) until some effect is sleeping on this clock, so that
    /// `advance` cannot run before the effect has scheduled its wake-up.
    func waitForSleepers() async {
        for _ in 0..<1000 {
            do { try await checkSuspension() } catch { return }
        }
    }
}
