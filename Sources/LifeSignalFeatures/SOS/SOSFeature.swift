import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The SOS button: raise an alert that tells every responder at once, see who has answered,
/// and stand it down.
///
/// Raising asks for a confirmation first: a pocket tap must not wake everyone who looks out
/// for the person. Standing down needs none, since a false alarm should end as fast as
/// possible. The backend tells the responders both times; this screen only says that it did.
///
/// Where the person is goes with the SOS only when they share it: the app sends
/// ``Action/locationShared(_:)`` with a fix while sharing is on, and `nil` when it is turned
/// off, so a stale place is never sent.
public struct SOSFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The alert in force, once loaded; `nil` when there is none.
        public var activeAlert: AlertRecord?
        public var isLoading: Bool
        /// "Send an SOS to all your responders?" is showing.
        public var isConfirmingActivation: Bool
        /// A raise or stand-down is in flight; repeated taps are ignored.
        public var isSending: Bool
        /// The place the person shares, sent with an SOS; `nil` when they do not share it.
        public var sharedLocation: AlertLocation?
        /// What just happened, in plain words, for the banner.
        public var notice: String?
        public var errorMessage: String?

        public init(
            activeAlert: AlertRecord? = nil, isLoading: Bool = false, isConfirmingActivation: Bool = false,
            isSending: Bool = false, sharedLocation: AlertLocation? = nil, notice: String? = nil, errorMessage: String? = nil
        ) {
            self.activeAlert = activeAlert
            self.isLoading = isLoading
            self.isConfirmingActivation = isConfirmingActivation
            self.isSending = isSending
            self.sharedLocation = sharedLocation
            self.notice = notice
            self.errorMessage = errorMessage
        }

        public var isActive: Bool { activeAlert?.status == .active }

        /// Responders who have answered, first answer first.
        public var responders: [String] {
            (activeAlert?.responses ?? []).sorted { $0.respondedAt < $1.respondedAt }.map(\.responderName)
        }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared, or the person pulled to refresh: read the alert in force.
        case task
        case loaded(Result<AlertRecord?, DomainError>)
        /// A fix from the device while the person shares their location, or `nil` when they stop.
        case locationShared(AlertLocation?)
        case activateTapped
        case activationCancelled
        case activationConfirmed
        case activated(Result<AlertRecord, DomainError>)
        case deactivateTapped
        case deactivated(Result<UUID, DomainError>)
    }

    enum CancelID { case load }

    @Dependency(\.alertClient) var alerts

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return load(&state)

        case .loaded(.success(let alert)):
            state.isLoading = false
            state.activeAlert = alert
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .locationShared(let location):
            state.sharedLocation = location
            return .none

        case .activateTapped:
            guard !state.isActive, !state.isSending else { return .none }
            state.isConfirmingActivation = true
            return .none

        case .activationCancelled:
            state.isConfirmingActivation = false
            return .none

        case .activationConfirmed:
            guard state.isConfirmingActivation, !state.isSending else { return .none }
            state.isConfirmingActivation = false
            state.isSending = true
            state.errorMessage = nil
            state.notice = nil
            let location = state.sharedLocation
            return .run { [alerts] send in
                await send(
                    .activated(
                        Result {
                            if let location { try await alerts.triggerSharing(location) } else { try await alerts.trigger() }
                        }.mapError(DomainError.init)))
            }

        case .activated(.success(let alert)):
            state.isSending = false
            state.activeAlert = alert
            state.notice =
                alert.location == nil
                ? "SOS sent: your responders have been told"
                : "SOS sent: your responders have been told where you are"
            return .none

        case .activated(.failure(let error)):
            state.isSending = false
            state.errorMessage = error.message
            // "Already active" means another device raised it: show that one.
            return AlertError(error) == .alreadyActive ? load(&state) : .none

        case .deactivateTapped:
            guard let alert = state.activeAlert, state.isActive, !state.isSending else { return .none }
            state.isSending = true
            state.errorMessage = nil
            state.notice = nil
            return .run { [alerts] send in
                await send(
                    .deactivated(
                        Result {
                            try await alerts.cancel(alert.id)
                            return alert.id
                        }.mapError(DomainError.init)))
            }

        case .deactivated(.success):
            state.isSending = false
            state.activeAlert = nil
            state.notice = "SOS cancelled: your responders have been told you are safe"
            return .none

        case .deactivated(.failure(let error)):
            state.isSending = false
            state.errorMessage = error.message
            // Cancelled elsewhere, or already over: find out what is true now.
            return load(&state)
        }
    }

    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        return .run { [alerts] send in
            await send(.loaded(Result { try await alerts.activeAlert(nil) }.mapError(DomainError.init)))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
    }
}
