import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// What reaches the person outside the app, per channel (push, SMS, email): everything, only
/// what cannot wait (missed check-ins, SOS alerts and their all-clears), or nothing.
///
/// A choice is saved at once and only that channel is sent, so a change made on another
/// device to another channel stays. The answer is all three as stored.
public struct NotificationChannelsFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The stored choices, once loaded.
        public var preferences: DeliveryPreferences?
        public var isSaving: Bool
        public var errorMessage: String?

        public init(preferences: DeliveryPreferences? = nil, isSaving: Bool = false, errorMessage: String? = nil) {
            self.preferences = preferences
            self.isSaving = isSaving
            self.errorMessage = errorMessage
        }

        /// Whether every channel is off: the person hears of an alert only in the app, so the
        /// screen warns them.
        public var isUnreachableOutsideTheApp: Bool {
            preferences.map { prefs in DeliveryChannel.allCases.allSatisfy { prefs[$0] == .off } } ?? false
        }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<DeliveryPreferences, DomainError>)
        case choicePicked(DeliveryChannel, ChannelChoice)
        /// The order alerts try the channels in, one after another (empty: all at once).
        case fallbackOrderPicked([DeliveryChannel])
        case saved(Result<DeliveryPreferences, DomainError>)
    }

    @Dependency(\.notificationClient) var notifications

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [notifications] send in
                await send(.loaded(Result { try await notifications.deliveryPreferences() }.mapError(DomainError.init)))
            }

        case .loaded(.success(let preferences)), .saved(.success(let preferences)):
            state.isSaving = false
            state.preferences = preferences
            return .none

        case .loaded(.failure(let error)), .saved(.failure(let error)):
            state.isSaving = false
            state.errorMessage = error.message
            return .none

        case .fallbackOrderPicked(let order):
            guard let current = state.preferences, current.fallback != order, !state.isSaving else { return .none }
            do { try DeliveryPreferences.validate(fallback: order) } catch {
                state.errorMessage = error.message
                return .none
            }
            state.isSaving = true
            state.errorMessage = nil
            return .run { [notifications] send in
                await send(.saved(Result { try await notifications.updateFallbackOrder(order) }.mapError(DomainError.init)))
            }

        case .choicePicked(let channel, let choice):
            guard let current = state.preferences, current[channel] != choice, !state.isSaving else { return .none }
            state.isSaving = true
            state.errorMessage = nil
            return .run { [notifications] send in
                await send(
                    .saved(
                        Result {
                            try await notifications.updateDeliveryPreferences(
                                channel == .push ? choice : nil, channel == .sms ? choice : nil, channel == .email ? choice : nil,
                                channel == .voice ? choice : nil)
                        }.mapError(DomainError.init)))
            }
        }
    }
}
