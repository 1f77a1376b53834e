import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The parts of ``ProfileFeature`` that are dialogs of their own: the edit form, the phone
/// change, and signing out or deleting the account.
extension ProfileFeature {
    func reduceEdit(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .editTapped:
            guard let profile = state.profile, state.draft == nil else { return .none }
            state.draft = Draft(profile)
            state.errorMessage = nil
            return .none

        case .draftChanged(let draft):
            guard state.draft != nil else { return .none }
            state.draft = draft
            state.errorMessage = nil
            return .none

        case .cancelEditTapped:
            guard state.draft != nil, state.activity != .saving else { return .none }
            state.draft = nil
            state.errorMessage = nil
            if let pending = state.pendingProfile { state.show(own: pending) }
            return .none

        case .saveTapped:
            guard let draft = state.draft, let profile = state.profile, state.activity == nil else { return .none }
            let changes: ProfileUpdate
            do {
                changes = try draft.changes(from: profile)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            guard changes != ProfileUpdate() else {
                // Nothing to send; closing the form is all "Save" means.
                return reduceEdit(into: &state, action: .cancelEditTapped)
            }
            return request(&state, .saving) { [userClient] in
                .saved(await Result { try await userClient.update(changes) }.mapError(DomainError.init))
            }

        case .saved(.success(let profile)):
            state.activity = nil
            state.draft = nil
            state.show(own: profile)
            return .none

        case .saved(.failure(let error)):
            // The form stays open with what was typed, so "Save" again is a retry.
            state.activity = nil
            state.errorMessage = error.message
            return .none

        default:
            return .none
        }
    }

    func reducePhone(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .changePhoneTapped:
            guard let profile = state.profile, state.phoneChange == nil else { return .none }
            state.phoneChange = PhoneChange(text: profile.phone)
            state.errorMessage = nil
            return .none

        case .phoneTextChanged(let text):
            guard state.phoneChange != nil, state.activity != .changingPhone else { return .none }
            // Typing again means the number shown for confirmation is no longer the one meant.
            state.phoneChange = PhoneChange(text: text)
            state.errorMessage = nil
            return .none

        case .phoneSubmitted:
            guard let change = state.phoneChange, change.confirming == nil else { return .none }
            let phone: PhoneNumber
            do {
                phone = try PhoneNumber(change.text)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            guard phone.e164 != state.profile?.phone else {
                // The same number, perhaps typed differently: nothing to change.
                state.phoneChange = nil
                state.errorMessage = nil
                return .none
            }
            state.phoneChange?.confirming = phone
            state.errorMessage = nil
            return .none

        case .phoneChangeConfirmed:
            guard let phone = state.phoneChange?.confirming, state.activity == nil else { return .none }
            return request(&state, .changingPhone) { [userClient] in
                .phoneChanged(await Result { try await userClient.update(ProfileUpdate(phone: phone.e164)) }
                    .mapError(DomainError.init))
            }

        case .phoneChangeCancelled:
            guard state.phoneChange != nil, state.activity != .changingPhone else { return .none }
            state.phoneChange = nil
            state.errorMessage = nil
            return .none

        case .phoneChanged(.success(let profile)):
            state.activity = nil
            state.phoneChange = nil
            state.show(own: profile)
            return .none

        case .phoneChanged(.failure(let error)):
            // Back to the text field with the number still in it, to fix or retry.
            state.activity = nil
            state.phoneChange?.confirming = nil
            state.errorMessage = error.message
            return .none

        default:
            return .none
        }
    }

    func reduceAccount(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .signOutTapped:
            guard state.activity == nil else { return .none }
            state.activity = .signingOut
            state.errorMessage = nil
            return .run { [authClient] send in
                do {
                    try await authClient.signOut()
                    await send(.signedOut)
                } catch {
                    await send(.signOutFailed(DomainError(error)))
                }
            }

        case .signOutFailed(let error), .deleteAccountFailed(let error):
            // Still signed in, still checking in: the safe side; the person can retry.
            state.activity = nil
            state.errorMessage = error.message
            return .none

        case .deleteAccountTapped:
            guard state.activity == nil else { return .none }
            state.deleteConfirmationText = ""
            state.errorMessage = nil
            return .none

        case .deleteConfirmationChanged(let text):
            guard state.deleteConfirmationText != nil else { return .none }
            state.deleteConfirmationText = text
            state.errorMessage = nil
            return .none

        case .deleteAccountCancelled:
            guard state.deleteConfirmationText != nil else { return .none }
            state.deleteConfirmationText = nil
            state.errorMessage = nil
            return .none

        case .deleteAccountConfirmed:
            guard state.deleteConfirmationText != nil, state.activity == nil else { return .none }
            guard state.canConfirmDelete else {
                state.errorMessage = "Type \(Self.deleteConfirmationWord) to confirm that the account should be deleted"
                return .none
            }
            state.deleteConfirmationText = nil
            state.activity = .deletingAccount
            state.errorMessage = nil
            return .run { [authClient] send in
                do {
                    try await authClient.deleteAccount()
                    await send(.signedOut)
                } catch {
                    await send(.deleteAccountFailed(DomainError(error)))
                }
            }

        case .signedOut:
            // Nothing of this person may stay on screen, or keep streaming, for the next one.
            state = State()
            return .cancel(id: CancelID.stream)

        default:
            return .none
        }
    }
}
