import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// Onboarding for a new account: names, an emergency note, the check-in interval and the
/// reminder lead, one step at a time, saved together at the end.
///
/// Each step is checked against the limits the server enforces before the next one is shown,
/// so a mistake is explained where it was made rather than after the last step. Nothing is sent
/// until "Finish": a person who quits halfway has no half-made profile, and the app can simply
/// start onboarding again (``UserProfile/isOnboarded`` stays false without a first name).
///
/// Saving is two requests, the profile (``UserClient/update``) and then the check-in settings
/// (``CheckInClient/updateSettings``). Both are idempotent, so a retry after either fails
/// simply sends both again, with everything the person typed still in place.
///
/// When both succeed the feature sends ``Action/finished(_:)`` with the saved profile; it does
/// nothing with that action itself, it is for the parent to move on.
public struct OnboardingFeature: Reducer {
    public enum Action: Equatable, Sendable {
        case firstNameChanged(String)
        case lastNameChanged(String)
        case emergencyNoteChanged(String)
        case intervalSelected(CheckInInterval)
        case reminderLeadSelected(ReminderLead)
        /// Checks the current step and shows the next; on the last step, saves everything.
        case nextTapped
        case backTapped
        case saved(Result<UserProfile, DomainError>)
        /// Delegate: onboarding is done, with the profile as the server now holds it.
        case finished(UserProfile)
    }

    /// The intervals offered, shortest first; any ``CheckInInterval`` is accepted, these are
    /// the ones a person is likely to want.
    public static let intervalChoices: [CheckInInterval] =
        [1, 2, 4, 8, 12, 24, 48].map { CheckInInterval(clamping: $0 * 3600) }
        + [3, 7].map { CheckInInterval(clamping: $0 * 24 * 3600) }

    @Dependency(\.userClient) var userClient
    @Dependency(\.checkInClient) var checkInClient

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .firstNameChanged(let text):
            state.firstName = text
            state.errorMessage = nil
            return .none

        case .lastNameChanged(let text):
            state.lastName = text
            state.errorMessage = nil
            return .none

        case .emergencyNoteChanged(let text):
            state.emergencyNote = text
            state.errorMessage = nil
            return .none

        case .intervalSelected(let interval):
            state.interval = interval
            state.errorMessage = nil
            // A lead chosen earlier that no longer fits is shortened to the longest that does,
            // so going back to pick a shorter interval never leaves an impossible pair behind.
            if !state.leadChoices.contains(state.reminderLead), let longest = state.leadChoices.last {
                state.reminderLead = longest
            }
            return .none

        case .reminderLeadSelected(let lead):
            do {
                try CheckInSettings(interval: state.interval, reminderLead: lead).validate()
            } catch {
                state.errorMessage = error.message
                return .none
            }
            state.reminderLead = lead
            state.errorMessage = nil
            return .none

        case .nextTapped:
            guard !state.isSaving else { return .none }
            do {
                try state.validate(state.step)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            guard let next = state.step.next else { return finish(&state) }
            state.step = next
            state.errorMessage = nil
            return .none

        case .backTapped:
            guard !state.isSaving, let previous = state.step.previous else { return .none }
            state.step = previous
            state.errorMessage = nil
            return .none

        case .saved(.success(let profile)):
            state.isSaving = false
            return .send(.finished(profile))

        case .saved(.failure(let error)):
            // Everything typed stays, so "Finish" again is a retry.
            state.isSaving = false
            state.errorMessage = error.message
            return .none

        case .finished:
            return .none
        }
    }

    private func finish(_ state: inout State) -> Effect<Action> {
        let update: ProfileUpdate
        do {
            update = try state.profileUpdate()
        } catch {
            state.errorMessage = error.message
            return .none
        }
        state.isSaving = true
        state.errorMessage = nil
        let (interval, lead) = (state.interval, state.reminderLead)
        return .run { [userClient, checkInClient] send in
            await send(
                .saved(
                    Result {
                        let profile = try await userClient.update(update)
                        let settings = try await checkInClient.updateSettings(interval, lead)
                        return profile.withCheckInSettings(settings)
                    }.mapError(DomainError.init)))
        }
    }
}

extension UserProfile {
    /// This profile with the check-in settings the server just stored.
    ///
    /// `updateSettings` answers with the settings alone; the profile is brought up to date the
    /// way the server updates its row (the deadline moves to last check-in + the new interval),
    /// so callers need no extra read to show it.
    fileprivate func withCheckInSettings(_ settings: CheckInSettings) -> UserProfile {
        var profile = self
        profile.checkInIntervalSeconds = Int(settings.interval.seconds)
        profile.reminderLead = settings.reminderLead
        profile.deadline = profile.checkInStatus.deadline
        return profile
    }
}
