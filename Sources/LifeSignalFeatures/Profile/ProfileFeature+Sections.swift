import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The parts of ``ProfileFeature`` that are dialogs of their own: the edit form, and signing
/// out or deleting the account (the phone change is in `ProfileFeature+Phone.swift`).
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
