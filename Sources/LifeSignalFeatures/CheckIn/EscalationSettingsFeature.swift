import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// What happens after a missed deadline, chosen by the person who checks in (issue 19): the
/// grace period before responders are told, the delay between tiers, repeats while nobody
/// has said "I'm on it", each responder's tier, and pausing check-ins.
///
/// Unlike the interval (``CheckInSettingsFeature``), none of these can put the person past
/// their deadline, so each choice is saved at once, with only what changed sent. A choice out
/// of range is refused here with the rule's own words, before any request. Every answer is
/// the whole state as stored, which replaces what is shown.
public struct EscalationSettingsFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The stored state, once loaded.
        public var escalation: CheckInEscalation?
        public var isSaving: Bool
        public var errorMessage: String?

        public init(escalation: CheckInEscalation? = nil, isSaving: Bool = false, errorMessage: String? = nil) {
            self.escalation = escalation
            self.isSaving = isSaving
            self.errorMessage = errorMessage
        }

        /// Grace periods offered (seconds): none, then 15 minutes to an hour, as the check-in
        /// services people know offer them.
        public static let graceChoices = [0, 900, 1800, 2700, 3600]
        /// Delays between tiers offered (seconds): 15 minutes to 4 hours (2 hours by default).
        public static let tierDelayChoices = [900, 1800, 3600, 7200, 14_400]
        /// Repeats offered (seconds); `nil` is "no repeats".
        public static let repeatChoices: [Int?] = [nil, 900, 1800, 3600]
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<CheckInEscalation, DomainError>)
        case gracePicked(Int)
        case tierDelayPicked(Int)
        /// `nil`: no repeats.
        case repeatPicked(Int?)
        case tierPicked(responder: UserID, tier: Int)
        /// Pause reminders and escalation until then; the person's responders are told.
        case pauseTapped(until: Date)
        case resumeTapped
        case saved(Result<CheckInEscalation, DomainError>)
    }

    @Dependency(\.checkInClient) var checkIns

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [checkIns] send in
                await send(.loaded(Result { try await checkIns.escalation() }.mapError(DomainError.init)))
            }

        case .loaded(.success(let escalation)):
            state.escalation = escalation
            return .none

        case .loaded(.failure(let error)):
            state.errorMessage = error.message
            return .none

        case .gracePicked(let seconds):
            return change(&state, { $0.graceSeconds = seconds }) { [checkIns] in try await checkIns.updateEscalation(seconds, nil, nil) }

        case .tierDelayPicked(let seconds):
            return change(&state, { $0.tierDelaySeconds = seconds }) { [checkIns] in try await checkIns.updateEscalation(nil, seconds, nil) }

        case .repeatPicked(let seconds):
            // The functions spell "no repeats" as 0.
            return change(&state, { $0.repeatSeconds = seconds }) { [checkIns] in try await checkIns.updateEscalation(nil, nil, seconds ?? 0) }

        case .tierPicked(let responder, let tier):
            guard let escalation = state.escalation, !state.isSaving,
                escalation.responders.first(where: { $0.id == responder })?.tier != tier
            else { return .none }
            do {
                try EscalationSettings.validate(tier: tier)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            return save(&state) { [checkIns] in try await checkIns.setResponderTier(responder, tier) }

        case .pauseTapped(let until):
            guard state.escalation != nil else { return .none }
            return save(&state) { [checkIns] in try await checkIns.pause(until) }

        case .resumeTapped:
            guard state.escalation?.pausedUntil != nil else { return .none }
            return save(&state) { [checkIns] in try await checkIns.resume() }

        case .saved(.success(let escalation)):
            state.isSaving = false
            state.escalation = escalation
            return .none

        case .saved(.failure(let error)):
            state.isSaving = false
            state.errorMessage = error.message
            return .none
        }
    }

    /// Checks a changed setting and saves it; the same value again sends nothing.
    private func change(
        _ state: inout State, _ edit: (inout EscalationSettings) -> Void,
        _ work: @escaping @Sendable () async throws -> CheckInEscalation
    ) -> Effect<Action> {
        guard let current = state.escalation?.settings, !state.isSaving else { return .none }
        var proposal = current
        edit(&proposal)
        guard proposal != current else { return .none }
        do {
            try proposal.validate()
        } catch {
            state.errorMessage = error.message
            return .none
        }
        return save(&state, work)
    }

    private func save(_ state: inout State, _ work: @escaping @Sendable () async throws -> CheckInEscalation) -> Effect<Action> {
        guard !state.isSaving else { return .none }
        state.isSaving = true
        state.errorMessage = nil
        return .run { send in
            await send(.saved(Result { try await work() }.mapError(DomainError.init)))
        }
    }
}
