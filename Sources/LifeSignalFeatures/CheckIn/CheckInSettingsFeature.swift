import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// How often the person checks in and how early they are reminded, changed only after they
/// confirm.
///
/// A new interval moves the deadline at once (last check-in + the new interval), so a shorter
/// interval can put the person past their deadline and alert their responders: the change is
/// held as ``State/pending`` and explained until confirmed. A lead as long as the interval is
/// refused here, before any request, with the rule's own words.
public struct CheckInSettingsFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The saved settings, once loaded.
        public var settings: CheckInSettings?
        /// A change waiting for the person's confirmation.
        public var pending: CheckInSettings?
        public var isSaving: Bool
        public var errorMessage: String?

        public init(settings: CheckInSettings? = nil, pending: CheckInSettings? = nil, isSaving: Bool = false, errorMessage: String? = nil) {
            self.settings = settings
            self.pending = pending
            self.isSaving = isSaving
            self.errorMessage = errorMessage
        }

        /// The choices offered for the interval, as in the original app.
        public static let intervalChoices: [TimeInterval] = [1, 2, 4, 8, 12, 24, 48, 72, 168].map { $0 * 3600 }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<CheckInSettings, DomainError>)
        case intervalPicked(CheckInInterval)
        case reminderPicked(ReminderLead)
        case confirmTapped
        case cancelTapped
        case saved(Result<CheckInSettings, DomainError>)
    }

    @Dependency(\.checkInClient) var checkIns

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [checkIns] send in
                await send(.loaded(Result { try await checkIns.settings() }.mapError(DomainError.init)))
            }

        case .loaded(.success(let settings)):
            state.settings = settings
            return .none

        case .loaded(.failure(let error)):
            state.errorMessage = error.message
            return .none

        case .intervalPicked(let interval):
            return propose(&state) { $0.interval = interval }

        case .reminderPicked(let lead):
            return propose(&state) { $0.reminderLead = lead }

        case .cancelTapped:
            state.pending = nil
            state.errorMessage = nil
            return .none

        case .confirmTapped:
            guard let pending = state.pending, let current = state.settings, !state.isSaving else { return .none }
            state.isSaving = true
            state.errorMessage = nil
            // Send only what changed, so a concurrent change of the other field elsewhere stays.
            let interval = pending.interval == current.interval ? nil : pending.interval
            let lead = pending.reminderLead == current.reminderLead ? nil : pending.reminderLead
            return .run { [checkIns] send in
                await send(.saved(Result { try await checkIns.updateSettings(interval, lead) }.mapError(DomainError.init)))
            }

        case .saved(.success(let settings)):
            state.isSaving = false
            state.settings = settings
            state.pending = nil
            return .none

        case .saved(.failure(let error)):
            // Keep the proposal showing, so the person can retry or cancel.
            state.isSaving = false
            state.errorMessage = error.message
            return .none
        }
    }

    /// Starts (or amends) a proposal from the pending one, else the saved settings.
    private func propose(_ state: inout State, _ change: (inout CheckInSettings) -> Void) -> Effect<Action> {
        guard let base = state.pending ?? state.settings, !state.isSaving else { return .none }
        var proposal = base
        change(&proposal)
        do {
            try proposal.validate()
        } catch {
            state.errorMessage = error.message
            return .none
        }
        state.errorMessage = nil
        state.pending = proposal == state.settings ? nil : proposal
        return .none
    }
}
