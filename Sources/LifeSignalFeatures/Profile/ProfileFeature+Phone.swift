import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The phone change of ``ProfileFeature``: a new number, read back for confirmation, then a
/// code sent to it that proves the person holds it.
///
/// The number is how the person signs in and where responders call in an emergency, so it
/// moves only when the code comes back: a session left open on a lost phone cannot move the
/// account to someone else's number.
extension ProfileFeature {
    func reducePhone(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .changePhoneTapped:
            guard let profile = state.profile, state.phoneChange == nil else { return .none }
            state.phoneChange = PhoneChange(text: profile.phone)
            state.errorMessage = nil
            return .none

        case .phoneTextChanged(let text):
            guard let change = state.phoneChange, change.codeSentTo == nil, state.activity != .changingPhone else { return .none }
            // Typing again means the number shown for confirmation is no longer the one meant.
            state.phoneChange = PhoneChange(text: text)
            state.errorMessage = nil
            return .none

        case .phoneSubmitted:
            guard let change = state.phoneChange, change.confirming == nil, change.codeSentTo == nil else { return .none }
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
            guard let phone = state.phoneChange?.confirming, state.phoneChange?.codeSentTo == nil, state.activity == nil else { return .none }
            return request(&state, .changingPhone) { [authClient] in
                .phoneCodeSent(
                    await Result {
                        try await authClient.requestPhoneChange(phone)
                        return phone
                    }.mapError(DomainError.init))
            }

        case .phoneCodeSent(.success(let phone)):
            state.activity = nil
            state.phoneChange?.codeSentTo = phone
            state.phoneChange?.codeText = ""
            return .none

        case .phoneCodeSent(.failure(let error)):
            // Back to the text field with the number still in it (taken, or mistyped).
            state.activity = nil
            state.phoneChange?.confirming = nil
            state.errorMessage = error.message
            return .none

        case .phoneCodeChanged(let text):
            guard state.phoneChange?.codeSentTo != nil, state.activity != .changingPhone else { return .none }
            state.phoneChange?.codeText = text
            state.errorMessage = nil
            return .none

        case .phoneCodeSubmitted:
            guard let change = state.phoneChange, let phone = change.codeSentTo, state.activity == nil else { return .none }
            let code: OneTimeCode
            do {
                code = try OneTimeCode(change.codeText)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            return request(&state, .changingPhone) { [authClient, userClient] in
                .phoneChanged(
                    await Result {
                        _ = try await authClient.confirmPhoneChange(phone, code)
                        return try await userClient.profile()
                    }.mapError(DomainError.init))
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
            state.activity = nil
            state.errorMessage = error.message
            state.phoneChange?.codeText = ""
            if error == .otpExpired || error == .tooManyAttempts {
                // This code can never work now: start again from the number.
                state.phoneChange?.codeSentTo = nil
                state.phoneChange?.confirming = nil
            }
            return .none

        default:
            return .none
        }
    }
}
