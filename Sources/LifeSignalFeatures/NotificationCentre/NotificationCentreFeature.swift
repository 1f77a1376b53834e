import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The notification centre: what the server told me, newest first, kept up to date live;
/// filtered by category; an unread badge; mark one or all read; clear the filtered ones after
/// a confirmation.
///
/// Marking and clearing reload the list after the server has answered rather than editing it
/// in advance, as the contact screens do: the server decides what "all" covers (a notification
/// may have arrived since the list was shown), so only its list is the truth. A failure leaves
/// the list as it was and says why.
public struct NotificationCentreFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// Every notification of mine, newest first, whatever the filter.
        public var notifications: [NotificationRecord]
        /// The category shown; `nil` shows all.
        public var filter: NotificationCategory?
        public var isLoading: Bool
        /// "Clear these notifications?" is showing.
        public var isConfirmingClear: Bool
        public var errorMessage: String?

        public init(
            notifications: [NotificationRecord] = [], filter: NotificationCategory? = nil, isLoading: Bool = false,
            isConfirmingClear: Bool = false, errorMessage: String? = nil
        ) {
            self.notifications = notifications
            self.filter = filter
            self.isLoading = isLoading
            self.isConfirmingClear = isConfirmingClear
            self.errorMessage = errorMessage
        }

        /// The notifications the filter lets through, newest first.
        public var visible: [NotificationRecord] {
            guard let filter else { return notifications }
            return notifications.filter { $0.type.category == filter }
        }

        /// Unread notifications of every category: the badge counts what the person has not
        /// seen, not what the current filter happens to show.
        public var badge: Int { notifications.filter { !$0.isRead }.count }

        /// What "Clear" deletes: the filter's types, or everything (`nil`) when unfiltered.
        public var typesToClear: [NotificationType]? { filter?.types }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared: subscribe to new notifications, then load the list.
        case task
        /// The screen went away: stop listening.
        case onDisappear
        case loaded(Result<[NotificationRecord], DomainError>)
        /// One notification written after the screen appeared (or just before: see ``task``).
        case notificationArrived(NotificationRecord)
        /// The live subscription could not start or broke off; the list still works.
        case streamFailed(DomainError)
        case filterChanged(NotificationCategory?)
        case markReadTapped(UUID)
        case markAllReadTapped
        case clearTapped
        case clearConfirmed
        case clearCancelled
        /// How many notifications were marked read.
        case markedRead(Result<Int, DomainError>)
        /// How many notifications were deleted.
        case cleared(Result<Int, DomainError>)
    }

    enum CancelID { case stream, load }

    @Dependency(\.notificationClient) var client

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            state.isLoading = true
            // A reload still in flight read the list earlier than `listen` will, and must not
            // land after it.
            return .merge(.cancel(id: CancelID.load), listen())

        case .onDisappear:
            return .cancel(id: CancelID.stream)

        case .loaded(.success(let notifications)):
            state.isLoading = false
            state.notifications = notifications
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .notificationArrived(let notification):
            // The stream may repeat one the list already holds (see `listen`); the listed copy
            // is at least as fresh, since it may have been read since.
            guard !state.notifications.contains(where: { $0.id == notification.id }) else { return .none }
            state.notifications.insert(notification, at: 0)
            return .none

        case .streamFailed(let error):
            state.errorMessage = error.message
            return .none

        case .filterChanged(let filter):
            state.filter = filter
            return .none

        case .markReadTapped(let id):
            // Already read, or gone: there is nothing to ask the server.
            guard state.notifications.contains(where: { $0.id == id && !$0.isRead }) else { return .none }
            state.errorMessage = nil
            return markRead([id])

        case .markAllReadTapped:
            guard state.badge > 0 else { return .none }
            state.errorMessage = nil
            return markRead(nil)

        case .clearTapped:
            // Nothing to confirm when the filter shows nothing.
            guard !state.visible.isEmpty else { return .none }
            state.isConfirmingClear = true
            return .none

        case .clearCancelled:
            state.isConfirmingClear = false
            return .none

        case .clearConfirmed:
            guard state.isConfirmingClear else { return .none }
            state.isConfirmingClear = false
            state.errorMessage = nil
            let types = state.typesToClear
            return .run { [client] send in
                await send(.cleared(Result { try await client.clear(types) }.mapError(DomainError.init)))
            }

        case .markedRead(.success), .cleared(.success):
            state.isLoading = true
            return .run { [client] send in
                await send(.loaded(Result { try await client.notifications() }.mapError(DomainError.init)))
            }
            .cancellable(id: CancelID.load, cancelInFlight: true)

        case .markedRead(.failure(let error)), .cleared(.failure(let error)):
            state.errorMessage = error.message
            return .none
        }
    }

    /// Subscribes, then loads the list, then relays new notifications until cancelled.
    ///
    /// The order is what makes the list complete: the subscription is in place before the list
    /// is read, so a notification written in between is on the stream, and the stream buffers
    /// it until the list has been shown. One written just before subscribing may be both listed
    /// and streamed, which `notificationArrived` ignores by id.
    private func listen() -> Effect<Action> {
        .run { [client] send in
            var stream: AsyncThrowingStream<NotificationRecord, any Error>?
            do {
                stream = try await client.stream()
            } catch is CancellationError {
                return
            } catch {
                await send(.streamFailed(DomainError(error)))
            }
            await send(.loaded(Result { try await client.notifications() }.mapError(DomainError.init)))
            guard let stream else { return }
            for try await notification in stream {
                await send(.notificationArrived(notification))
            }
        } catch: { error, send in
            await send(.streamFailed(DomainError(error)))
        }
        .cancellable(id: CancelID.stream, cancelInFlight: true)
    }

    private func markRead(_ ids: [UUID]?) -> Effect<Action> {
        .run { [client] send in
            await send(.markedRead(Result { try await client.markRead(ids) }.mapError(DomainError.init)))
        }
    }
}

extension NotificationCategory {
    /// The notification types this filter shows, in declaration order.
    public var types: [NotificationType] { NotificationType.allCases.filter { $0.category == self } }
}
