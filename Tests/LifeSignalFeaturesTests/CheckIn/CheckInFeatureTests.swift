import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Every action and error path of the check-in screen, with time driven by a test clock.
@MainActor
@Suite(.reportsIssues) struct CheckInFeatureTests {
    /// A wall clock the test moves by hand; `date.now` reads it.
    let wall = LockIsolated(Fixtures.start)
    let clock = TestClock()

    func makeStore(
        _ state: CheckInFeature.State = .init(),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<CheckInFeature.State, CheckInFeature.Action> {
        TestStore(initialState: state) {
            CheckInFeature()
        } withDependencies: { [wall, clock] in
            $0.date = DateGenerator { wall.value }
            $0.continuousClock = clock
            dependencies(&$0)
        }
    }

    @Test func taskLoadsStatusAndTicksUntilDisappear() async throws {
        let status = CheckInStatus(lastCheckIn: Fixtures.start.addingTimeInterval(-600), interval: try Fixtures.oneHour())
        let store = makeStore { $0.checkInClient.status = { status } }
        await store.send(.task) { $0.now = Fixtures.start }
        await store.receive(.statusResponse(.success(status))) {
            $0.status = status
            $0.band = .green
        }
        await clock.waitForSleepers()
        wall.setValue(Fixtures.start.addingTimeInterval(1))
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTicked) { $0.now = Fixtures.start.addingTimeInterval(1) }
        #expect(store.state.timeRemaining.map { Int($0.rounded()) } == 3000 - 1)
        await store.send(.onDisappear)
        await clock.advance(by: .seconds(10))
        await store.finish()
    }

    @Test func bandGoesGreenYellowOrangeRedAsTimePasses() async throws {
        // The person checked in at `start` on a 1-hour interval. Between ticks the wall clock
        // jumps (the phone slept), so each tick lands in the next band.
        let status = CheckInStatus(lastCheckIn: Fixtures.start, interval: try Fixtures.oneHour())
        let store = makeStore { $0.checkInClient.status = { status } }
        await store.send(.task) { $0.now = Fixtures.start }
        await store.receive(.statusResponse(.success(status))) {
            $0.status = status
            $0.band = .green
        }
        let steps: [(elapsed: TimeInterval, band: ColorBand)] = [
            (1799, .green), (1800, .yellow), (2879, .yellow), (2880, .orange), (3599, .orange), (3600, .red),
        ]
        for step in steps {
            await clock.waitForSleepers()
            let now = Fixtures.start.addingTimeInterval(step.elapsed)
            wall.setValue(now)
            await clock.advance(by: .seconds(1))
            await store.receive(.timerTicked) {
                $0.now = now
                $0.band = step.band
            }
        }
        await store.send(.onDisappear)
        await store.finish()
    }

    @Test func bandFollowsTheTestClockAcrossAWholeHour() async throws {
        // Here `date.now` is the test clock itself: every tick is one second later.
        let clock = self.clock
        let status = CheckInStatus(lastCheckIn: Fixtures.start, interval: try Fixtures.oneHour())
        let store = makeStore {
            $0.checkInClient.status = { status }
            $0.date = DateGenerator {
                let elapsed = TestClock<Duration>.Instant().duration(to: clock.now).components
                return Fixtures.start.addingTimeInterval(
                    TimeInterval(elapsed.seconds) + TimeInterval(elapsed.attoseconds) / 1e18)
            }
        }
        store.exhaustivity = .off
        await store.send(.task)
        await store.receive(.statusResponse(.success(status))) { $0.band = .green }
        var bands: [ColorBand] = [store.state.band]
        var elapsed = 0
        for minutes in [30, 18, 12] {
            elapsed += minutes * 60
            let target = Fixtures.start.addingTimeInterval(TimeInterval(elapsed))
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(minutes * 60))
            // A long jump can outrun the timer's re-arming (on a loaded machine it may re-arm
            // only after the jump ended), leaving its next tick at or after the target. So
            // nudge a second at a time, each time once the timer sleeps again: then the nudge
            // surely fires it, and a tick is surely received.
            var nudges = 0
            while store.state.now < target, nudges < 5 {
                await clock.waitForSleepers()
                await clock.advance(by: .seconds(1))
                await store.receive(.timerTicked, timeout: .seconds(5))
                store.skipReceivedActions()
                nudges += 1
            }
            bands.append(store.state.band)
        }
        #expect(bands == [.green, .yellow, .orange, .red])
        #expect(store.state.now >= Fixtures.start.addingTimeInterval(3600))
        await store.send(.onDisappear)
        await store.finish()
    }

    @Test func taskTwiceRunsOneTimer() async throws {
        let status = CheckInStatus(lastCheckIn: nil, interval: .default)
        let store = makeStore { $0.checkInClient.status = { status } }
        await store.send(.task) { $0.now = Fixtures.start }
        await store.receive(.statusResponse(.success(status))) { $0.status = status }
        await store.send(.task)
        await store.receive(.statusResponse(.success(status)))
        await clock.waitForSleepers()
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTicked)
        await store.send(.onDisappear)
        await store.finish()
    }

    /// The reply carries the whole status: nothing is reloaded (an unexpected status read
    /// would arrive as an unasserted action and fail the exhaustive store).
    @Test func checkInTakesTheStatusFromItsReply() async throws {
        let before = CheckInStatus(lastCheckIn: Fixtures.start.addingTimeInterval(-3000), interval: try Fixtures.oneHour())
        let after = CheckInStatus(lastCheckIn: Fixtures.start, interval: try Fixtures.oneHour())
        let result = CheckInResult(checkedInAt: Fixtures.start, deadline: Fixtures.start.addingTimeInterval(3600), interval: try Fixtures.oneHour())
        let store = makeStore(.init(status: before, now: Fixtures.start, band: .orange)) {
            $0.checkInClient.checkIn = { result }
        }
        await store.send(.checkInTapped) { $0.isCheckingIn = true }
        await store.receive(.checkInResponse(.success(result))) {
            $0.isCheckingIn = false
            $0.lastResult = result
            $0.status = after
            $0.band = .green
        }
        #expect(store.state.cooldownRemaining == CheckInRules.cooldown)
        await store.finish()
    }

    /// A person with a PIN checks in through `checkInWithPIN`, with the PIN typed; a wrong
    /// PIN is shown in the rule's words and the button works again.
    @Test func checkInWithPINSendsThePINAndShowsAWrongOne() async throws {
        let result = CheckInResult(checkedInAt: Fixtures.start, deadline: Fixtures.start.addingTimeInterval(3600), interval: try Fixtures.oneHour())
        let sent = LockIsolated<[String]>([])
        let store = makeStore(.init(status: CheckInStatus(lastCheckIn: nil, interval: try Fixtures.oneHour()), now: Fixtures.start)) {
            $0.checkInClient.checkInWithPIN = { pin in
                sent.withValue { $0.append(pin) }
                guard pin == "4821" else { throw DomainError.forbidden("That is not your check-in PIN") }
                return result
            }
        }
        await store.send(.checkInWithPINTapped("1111")) { $0.isCheckingIn = true }
        await store.receive(.checkInResponse(.failure(.forbidden("That is not your check-in PIN")))) {
            $0.isCheckingIn = false
            $0.errorMessage = "That is not your check-in PIN"
        }
        await store.send(.checkInWithPINTapped("4821")) {
            $0.isCheckingIn = true
            $0.errorMessage = nil
        }
        await store.receive(.checkInResponse(.success(result))) {
            $0.isCheckingIn = false
            $0.lastResult = result
            $0.status = result.status
            $0.band = .green
        }
        #expect(sent.value == ["1111", "4821"])
        await store.finish()
    }

    @Test func secondTapWithinFiveMinutesIsRefusedLocally() async throws {
        let result = CheckInResult(checkedInAt: Fixtures.start, deadline: Fixtures.start.addingTimeInterval(3600), interval: try Fixtures.oneHour())
        let status = CheckInStatus(lastCheckIn: Fixtures.start, interval: try Fixtures.oneHour())
        let checkIns = LockIsolated(0)
        let store = makeStore(.init(status: CheckInStatus(lastCheckIn: nil, interval: try Fixtures.oneHour()), now: Fixtures.start)) {
            $0.checkInClient.checkIn = {
                checkIns.withValue { $0 += 1 }
                return result
            }
        }
        await store.send(.checkInTapped) { $0.isCheckingIn = true }
        await store.receive(.checkInResponse(.success(result))) {
            $0.isCheckingIn = false
            $0.lastResult = result
            $0.status = status
            $0.band = .green
        }
        wall.setValue(Fixtures.start.addingTimeInterval(60))
        await store.send(.checkInTapped) {
            $0.errorMessage = "You checked in less than 5 minutes ago; try again in 240 s"
        }
        #expect(checkIns.value == 1)
        await store.finish()
    }

    @Test func tapWhileCheckingInIsIgnored() async throws {
        let result = CheckInResult(checkedInAt: Fixtures.start, deadline: Fixtures.start.addingTimeInterval(3600), interval: try Fixtures.oneHour())
        // The request is held on its own test clock so the second tap lands while it is in flight.
        let network = TestClock()
        let store = makeStore {
            $0.checkInClient.checkIn = {
                try await network.sleep(for: .seconds(1))
                return result
            }
        }
        await store.send(.checkInTapped) { $0.isCheckingIn = true }
        await store.send(.checkInTapped)
        await network.waitForSleepers()
        await network.advance(by: .seconds(1))
        await store.receive(.checkInResponse(.success(result))) {
            $0.isCheckingIn = false
            $0.lastResult = result
            $0.status = result.status
            $0.band = .green
        }
        await store.finish()
    }

    @Test func serverRefusalIsShown() async throws {
        let store = makeStore {
            $0.checkInClient.checkIn = { throw DomainError.checkInTooSoon(retryAfter: 12.5) }
        }
        await store.send(.checkInTapped) { $0.isCheckingIn = true }
        await store.receive(.checkInResponse(.failure(.checkInTooSoon(retryAfter: 12.5)))) {
            $0.isCheckingIn = false
            $0.errorMessage = "You checked in less than 5 minutes ago; try again in 13 s"
        }
        await store.finish()
    }

    @Test func checkInFailureIsShownAndCleared() async throws {
        let result = CheckInResult(checkedInAt: Fixtures.start, deadline: Fixtures.start.addingTimeInterval(3600), interval: try Fixtures.oneHour())
        let attempts = LockIsolated(0)
        let store = makeStore {
            $0.checkInClient.checkIn = {
                let attempt = attempts.withValue {
                    $0 += 1
                    return $0
                }
                if attempt == 1 { throw URLError(.notConnectedToInternet) }
                return result
            }
        }
        await store.send(.checkInTapped) { $0.isCheckingIn = true }
        await store.receive(matching: {
            if case .checkInResponse(.failure(.internal)) = $0 { true } else { false }
        }) {
            $0.isCheckingIn = false
            $0.errorMessage = DomainError(URLError(.notConnectedToInternet)).message
        }
        await store.send(.checkInTapped) {
            $0.isCheckingIn = true
            $0.errorMessage = nil
        }
        await store.receive(.checkInResponse(.success(result))) {
            $0.isCheckingIn = false
            $0.lastResult = result
            $0.status = result.status
            $0.band = .green
        }
        await store.finish()
    }

    @Test func statusFailureIsShown() async {
        let store = makeStore {
            $0.checkInClient.status = { throw DomainError.unauthenticated }
        }
        await store.send(.task) { $0.now = Fixtures.start }
        await store.receive(.statusResponse(.failure(.unauthenticated))) { $0.errorMessage = "Sign in first" }
        await store.send(.onDisappear)
        await store.finish()
    }
}
