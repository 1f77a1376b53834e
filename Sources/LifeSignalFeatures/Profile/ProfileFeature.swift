import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The Profile screen: my details, kept live while the screen is shown; edit them, change the
/// picture, move the account to a new phone number, issue a new QR code, sign out, delete the
/// account.
///
/// The profile follows ``UserClient/stream`` (a check-in or a change on another device shows
/// at once) until `onDisappear`. While the person is editing, a streamed profile is held back
/// in ``State/pendingProfile`` rather than shown, and an edit sends only the fields that
/// changed, so neither side overwrites the other's work.
///
/// Everything destructive asks first: a new QR code (the old one stops linking anyone), a new
/// phone (shown back as understood, then proven by a code sent to it: it is the sign-in and
/// the number contacts call in an emergency),
/// and deleting the account (the word DELETE must be typed). Every input is checked with the
/// same rules the server applies before a request is made.
///
/// After signing out or deleting the account the feature clears its state, stops following
/// the profile and sends ``Action/signedOut``, which it does nothing else with: it is for the
/// parent to leave the signed-in screens.
public struct ProfileFeature: Reducer {
    public enum Action: Equatable, Sendable {
        /// The screen appeared: load the profile and follow its changes.
        case task
        /// The screen went away: stop following the profile.
        case onDisappear
        case loaded(Result<UserProfile, DomainError>)
        case streamed(UserProfile)
        case streamFailed(DomainError)

        case editTapped
        case draftChanged(Draft)
        case cancelEditTapped
        case saveTapped
        case saved(Result<UserProfile, DomainError>)

        /// An image was picked; its bytes and MIME type.
        case avatarPicked(Data, contentType: String)
        case removeAvatarTapped
        case avatarUpdated(Result<UserProfile, DomainError>)

        case changePhoneTapped
        case phoneTextChanged(String)
        /// "Continue" after typing: the number is read and shown back for confirmation.
        case phoneSubmitted
        case phoneChangeConfirmed
        case phoneChangeCancelled
        case phoneCodeSent(Result<PhoneNumber, DomainError>)
        case phoneCodeChanged(String)
        case phoneCodeSubmitted
        case phoneChanged(Result<UserProfile, DomainError>)

        case resetQRCodeTapped
        case resetQRCodeConfirmed
        case resetQRCodeCancelled
        case qrCodeReset(Result<UUID, DomainError>)

        case signOutTapped
        case signOutFailed(DomainError)
        case deleteAccountTapped
        case deleteConfirmationChanged(String)
        case deleteAccountConfirmed
        case deleteAccountCancelled
        case deleteAccountFailed(DomainError)
        /// Delegate: the person is signed out (or their account is gone).
        case signedOut
    }

    /// What must be typed to delete the account: a word, not a tap, so it cannot happen by
    /// accident.
    public static let deleteConfirmationWord = "DELETE"

    enum CancelID { case stream }

    @Dependency(\.userClient) var userClient
    @Dependency(\.authClient) var authClient

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            state.isLoading = true
            return follow()

        case .onDisappear:
            return .cancel(id: CancelID.stream)

        case .loaded(.success(let profile)):
            state.isLoading = false
            state.show(streamed: profile)
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .streamed(let profile):
            state.show(streamed: profile)
            return .none

        case .streamFailed(let error):
            state.errorMessage = error.message
            return .none

        case .editTapped, .draftChanged, .cancelEditTapped, .saveTapped, .saved:
            return reduceEdit(into: &state, action: action)

        case .avatarPicked(let image, let contentType):
            guard state.profile != nil, state.activity == nil else { return .none }
            do {
                try UserClient.validateAvatar(image, contentType: contentType)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            return request(&state, .updatingAvatar) { [userClient] in
                .avatarUpdated(await Result { try await userClient.uploadAvatar(image, contentType) }.mapError(DomainError.init))
            }

        case .removeAvatarTapped:
            guard state.profile?.avatarURL != nil, state.activity == nil else { return .none }
            return request(&state, .updatingAvatar) { [userClient] in
                .avatarUpdated(await Result { try await userClient.removeAvatar() }.mapError(DomainError.init))
            }

        case .avatarUpdated(.success(let profile)):
            state.activity = nil
            state.show(own: profile)
            return .none

        case .avatarUpdated(.failure(let error)):
            state.activity = nil
            state.errorMessage = error.message
            return .none

        case .changePhoneTapped, .phoneTextChanged, .phoneSubmitted, .phoneChangeConfirmed, .phoneChangeCancelled,
            .phoneCodeSent, .phoneCodeChanged, .phoneCodeSubmitted, .phoneChanged:
            return reducePhone(into: &state, action: action)

        case .resetQRCodeTapped:
            guard state.profile != nil else { return .none }
            state.isConfirmingQRCodeReset = true
            return .none

        case .resetQRCodeCancelled:
            state.isConfirmingQRCodeReset = false
            return .none

        case .resetQRCodeConfirmed:
            guard state.isConfirmingQRCodeReset, state.activity == nil else { return .none }
            state.isConfirmingQRCodeReset = false
            return request(&state, .resettingQRCode) { [userClient] in
                .qrCodeReset(await Result { try await userClient.resetQRCode() }.mapError(DomainError.init))
            }

        case .qrCodeReset(.success(let id)):
            state.activity = nil
            state.profile?.qrCodeID = id
            state.pendingProfile?.qrCodeID = id
            return .none

        case .qrCodeReset(.failure(let error)):
            state.activity = nil
            state.errorMessage = error.message
            return .none

        case .signOutTapped, .signOutFailed, .deleteAccountTapped, .deleteConfirmationChanged, .deleteAccountConfirmed,
            .deleteAccountCancelled, .deleteAccountFailed, .signedOut:
            return reduceAccount(into: &state, action: action)
        }
    }

    /// Loads the profile and then streams its changes, until cancelled.
    private func follow() -> Effect<Action> {
        .run { [userClient] send in
            // Subscribe before reading, so a change made between the two is not lost: it
            // arrives on the stream after the profile it follows.
            let changes = await Result { try await userClient.stream() }
            await send(.loaded(await Result { try await userClient.profile() }.mapError(DomainError.init)))
            for try await profile in try changes.get() {
                await send(.streamed(profile))
            }
        } catch: { error, send in
            await send(.streamFailed(DomainError(error)))
        }
        .cancellable(id: CancelID.stream, cancelInFlight: true)
    }

    /// Marks `activity` as in flight and runs `operation`, sending the action it returns.
    func request(
        _ state: inout State, _ activity: Activity, _ operation: @escaping @Sendable () async -> Action
    ) -> Effect<Action> {
        state.activity = activity
        state.errorMessage = nil
        return .run { send in await send(await operation()) }
    }
}

extension ProfileFeature.State {
    /// A profile from a load or the stream: shown, unless the person is editing.
    mutating func show(streamed profile: UserProfile) {
        if isEditing { pendingProfile = profile } else { self.profile = profile }
    }

    /// A profile the person's own request returned: the newest there is, so shown at once and
    /// anything held back is dropped as older.
    mutating func show(own profile: UserProfile) {
        self.profile = profile
        pendingProfile = nil
    }
}
