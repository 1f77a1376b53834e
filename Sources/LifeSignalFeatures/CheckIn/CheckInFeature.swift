import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The check-in screen: where the person stands (deadline, colour band), a button to check in,
/// and a countdown that ticks every second.
///
/// Time comes from dependencies, never from `Date()`: `\.date.now` says what time it is and
/// `\.continuousClock` paces the 1-second tick. Tests swap both, so a whole 1-hour interval
/// (green, yellow, orange, red) runs in milliseconds.
///
/// The 5-minute cooldown of ``CheckInRules`` is checked here before calling the server, so a
/// double tap is explained at once and costs no request; the server enforces the same rule, and
/// its refusal is shown the same way.
public struct CheckInFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The last check-in and interval, once loaded.
        public var status: CheckInStatus?
        /// The time of the last tick; what the countdown is drawn against.
        public var now: Date
        /// The button's colour at ``now``. Red until the status is known, as for a person who
        /// has never checked in: nothing says they are safe yet.
        public var band: ColorBand
        public var isCheckingIn: Bool
        /// The last failure, as ``DomainError/message`` words it (including the cooldown).
        public var errorMessage: String?
        /// The outcome of the last successful check-in, for the confirmation.
        public var lastResult: CheckInResult?

        public init(
            status: CheckInStatus? = nil, now: Date = Date(timeIntervalSince1970: 0),
            band: ColorBand = .red, isCheckingIn: Bool = false, errorMessage: String? = nil,
            lastResult: CheckInResult? = nil
        ) {
            self.status = status
            self.now = now
            self.band = band
            self.isCheckingIn = isCheckingIn
            self.errorMessage = errorMessage
            self.lastResult = lastResult
        }

        /// Seconds until another check-in is allowed at ``now``, or `nil` when it is allowed.
        /// Derived rather than stored, so it can never disagree with `status` and `now`.
        public var cooldownRemaining: TimeInterval? {
            guard let last = status?.lastCheckIn else { return nil }
            let remaining = CheckInRules.cooldown - now.timeIntervalSince(last)
            return remaining > 0 ? remaining : nil
        }

        /// Seconds until the deadline at ``now`` (negative once passed).
        public var timeRemaining: TimeInterval? { status?.timeRemaining(at: now) }

        mutating func updateBand() {
            band = status?.band(at: now) ?? .red
        }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared: load the status and start ticking.
        case task
        /// The screen went away: stop ticking.
        case onDisappear
        case timerTicked
        case statusResponse(Result<CheckInStatus, DomainError>)
        case checkInTapped
        /// The check-in of a person whose check-ins ask for their PIN.
        case checkInWithPINTapped(String)
        case checkInResponse(Result<CheckInResult, DomainError>)
    }

    enum CancelID { case timer }

    @Dependency(\.checkInClient) var checkInClient
    @Dependency(\.continuousClock) var clock
    @Dependency(\.date) var date

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            state.now = date.now
            state.updateBand()
            return .merge(
                loadStatus(),
                .run { [clock] send in
                    while true {
                        try await clock.sleep(for: .seconds(1))
                        await send(.timerTicked)
                    }
                }
                .cancellable(id: CancelID.timer, cancelInFlight: true)
            )

        case .onDisappear:
            return .cancel(id: CancelID.timer)

        case .timerTicked:
            // Read the time rather than adding a second: ticks can be late (a busy main actor,
            // a suspended app) and the countdown must not drift.
            state.now = date.now
            state.updateBand()
            return .none

        case .statusResponse(.success(let status)):
            state.status = status
            state.updateBand()
            return .none

        case .statusResponse(.failure(let error)):
            state.errorMessage = error.message
            return .none

        case .checkInTapped:
            return checkIn(&state) { [checkInClient] in try await checkInClient.checkIn() }

        case .checkInWithPINTapped(let pin):
            return checkIn(&state) { [checkInClient] in try await checkInClient.checkInWithPIN(pin) }

        case .checkInResponse(.success(let result)):
            state.isCheckingIn = false
            state.lastResult = result
            // The reply carries the whole status (time, interval, deadline): nothing to reload.
            state.status = result.status
            state.updateBand()
            return .none

        case .checkInResponse(.failure(let error)):
            state.isCheckingIn = false
            state.errorMessage = error.message
            return .none
        }
    }

    /// The cooldown checked here first, then `send` asked.
    private func checkIn(_ state: inout State, _ send: @escaping @Sendable () async throws -> CheckInResult) -> Effect<Action> {
        guard !state.isCheckingIn else { return .none }
        do {
            try CheckInRules.validateCheckIn(at: date.now, last: state.status?.lastCheckIn)
        } catch {
            state.errorMessage = error.message
            return .none
        }
        state.isCheckingIn = true
        state.errorMessage = nil
        return .run { effects in
            await effects(.checkInResponse(Result { try await send() }.mapError(DomainError.init)))
        }
    }

    private func loadStatus() -> Effect<Action> {
        .run { [checkInClient] send in
            await send(
                .statusResponse(
                    Result { try await checkInClient.status() }
                        .mapError(DomainError.init)))
        }
    }
}
