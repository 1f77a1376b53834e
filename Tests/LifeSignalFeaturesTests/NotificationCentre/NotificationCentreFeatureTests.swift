import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The notification centre: the list and the live stream, filters, the badge, marking read
/// and clearing, and every failure.
@MainActor
@Suite(.reportsIssues) struct NotificationCentreFeatureTests {
    typealias Feature = NotificationCentreFeature

    nonisolated static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000c001") ?? UUID())

    nonisolated static func note(_ id: Int, _ type: NotificationType, minutesAgo minutes: Double, read: Bool = false) -> NotificationRecord {
        NotificationRecord(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id)) ?? UUID(), userID: me, type: type,
            title: "\(type.rawValue) \(id)", body: "", isRead: read, createdAt: Fixtures.start.addingTimeInterval(-minutes * 60))
    }

    nonisolated static let ping = note(1, .pingReceived, minutesAgo: 5)
    nonisolated static let alert = note(2, .alertActivatedReceived, minutesAgo: 10)
    nonisolated static let reminder = note(3, .checkInReminder, minutesAgo: 60, read: true)
    nonisolated static let pingAnswered = note(4, .pingResponded, minutesAgo: 90)
    /// Newest first, as the client lists them.
    nonisolated static let listed = [ping, alert, reminder, pingAnswered]

    func makeStore(_ state: Feature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<Feature.State, Feature.Action>
    {
        TestStore(initialState: state) {
            Feature()
        } withDependencies: {
            dependencies(&$0)
        }
    }

    @Test func subscribesBeforeListingAndAddsEachLiveOneOnce() async {
        let (stream, continuation) = AsyncThrowingStream<NotificationRecord, any Error>.makeStream()
        let calls = LockIsolated<[String]>([])
        let store = makeStore {
            $0.notificationClient.stream = {
                calls.withValue { $0.append("stream") }
                return stream
            }
            $0.notificationClient.notifications = {
                calls.withValue { $0.append("list") }
                return Self.listed
            }
        }
        // Written just before the subscription: listed and streamed both.
        continuation.yield(Self.ping)
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(Self.listed))) {
            $0.isLoading = false
            $0.notifications = Self.listed
        }
        await store.receive(.notificationArrived(Self.ping))
        #expect(calls.value == ["stream", "list"])
        #expect(store.state.badge == 3)

        let fresh = Self.note(5, .nonResponsiveDependent, minutesAgo: 0)
        continuation.yield(fresh)
        await store.receive(.notificationArrived(fresh)) { $0.notifications.insert(fresh, at: 0) }
        #expect(store.state.badge == 4)
        // Realtime may deliver the same row twice.
        continuation.yield(fresh)
        await store.receive(.notificationArrived(fresh))

        await store.send(.onDisappear)
        // Nothing arrives once the screen has gone.
        continuation.yield(Self.note(6, .pingReceived, minutesAgo: 0))
        await store.finish()
    }

    @Test func aBrokenSubscriptionIsExplainedAndTheListStillLoads() async {
        let store = makeStore {
            $0.notificationClient.stream = { throw DomainError.unauthenticated }
            $0.notificationClient.notifications = { Self.listed }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.streamFailed(.unauthenticated)) { $0.errorMessage = "Sign in first" }
        await store.receive(.loaded(.success(Self.listed))) {
            $0.isLoading = false
            $0.notifications = Self.listed
        }
        await store.finish()
    }

    @Test func aStreamThatFailsLaterIsExplained() async {
        let (stream, continuation) = AsyncThrowingStream<NotificationRecord, any Error>.makeStream()
        let store = makeStore {
            $0.notificationClient.stream = { stream }
            $0.notificationClient.notifications = { [] }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success([]))) { $0.isLoading = false }
        continuation.finish(throwing: DomainError.internal("socket closed"))
        await store.receive(.streamFailed(.internal("socket closed"))) { $0.errorMessage = "Internal error: socket closed" }
        await store.finish()
    }

    @Test func aListThatFailsIsExplained() async {
        let (stream, continuation) = AsyncThrowingStream<NotificationRecord, any Error>.makeStream()
        let store = makeStore {
            $0.notificationClient.stream = { stream }
            $0.notificationClient.notifications = { throw DomainError.rateLimited(retryAfter: 3) }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.failure(.rateLimited(retryAfter: 3)))) {
            $0.isLoading = false
            $0.errorMessage = "Too many requests; retry in 3 s"
        }
        // The subscription keeps going: a later notification still shows.
        continuation.yield(Self.alert)
        await store.receive(.notificationArrived(Self.alert)) { $0.notifications = [Self.alert] }
        continuation.finish()
        await store.finish()
    }

    @Test func filtersShowTheirCategoryAndTheBadgeCountsEverything() async {
        let store = makeStore(Feature.State(notifications: Self.listed))
        #expect(store.state.visible == Self.listed && store.state.typesToClear == nil)
        await store.send(.filterChanged(.pings)) { $0.filter = .pings }
        #expect(store.state.visible == [Self.ping, Self.pingAnswered])
        #expect(store.state.typesToClear == [.pingSent, .pingReceived, .pingCancelled, .pingResponded, .pingClearAll])
        #expect(store.state.badge == 3)
        await store.send(.filterChanged(.checkIns)) { $0.filter = .checkIns }
        #expect(store.state.visible == [Self.reminder])
        await store.send(.filterChanged(.system)) { $0.filter = .system }
        #expect(store.state.visible.isEmpty)
        await store.send(.filterChanged(nil)) { $0.filter = nil }
        #expect(store.state.visible == Self.listed)
        // Every type is under exactly one filter, so "clear" under each filter in turn clears all.
        let covered = NotificationCategory.allCases.flatMap(\.types)
        #expect(covered.count == NotificationType.allCases.count && Set(covered) == Set(NotificationType.allCases))
    }

    @Test func markOneReadAsksTheServerThenReloads() async {
        let marked = LockIsolated<[[UUID]?]>([])
        let afterwards = [Self.note(1, .pingReceived, minutesAgo: 5, read: true), Self.alert, Self.reminder, Self.pingAnswered]
        let store = makeStore(Feature.State(notifications: Self.listed, errorMessage: "Earlier failure")) {
            $0.notificationClient.markRead = { ids in
                marked.withValue { $0.append(ids) }
                return 1
            }
            $0.notificationClient.notifications = { afterwards }
        }
        await store.send(.markReadTapped(Self.ping.id)) { $0.errorMessage = nil }
        await store.receive(.markedRead(.success(1))) { $0.isLoading = true }
        await store.receive(.loaded(.success(afterwards))) {
            $0.isLoading = false
            $0.notifications = afterwards
        }
        #expect(marked.value == [[Self.ping.id]])
        #expect(store.state.badge == 2)
        // Already read, or not listed: no request.
        await store.send(.markReadTapped(Self.reminder.id))
        await store.send(.markReadTapped(UUID()))
        #expect(marked.value.count == 1)
    }

    @Test func markAllReadAsksTheServerThenReloadsAndNeedsSomethingUnread() async {
        let marked = LockIsolated<[[UUID]?]>([])
        let allRead = Self.listed.map { note in
            var note = note
            note.isRead = true
            return note
        }
        let store = makeStore(Feature.State(notifications: Self.listed, filter: .alerts)) {
            $0.notificationClient.markRead = { ids in
                marked.withValue { $0.append(ids) }
                return 3
            }
            $0.notificationClient.notifications = { allRead }
        }
        // "All" means every notification, not only the filtered ones.
        await store.send(.markAllReadTapped)
        await store.receive(.markedRead(.success(3))) { $0.isLoading = true }
        await store.receive(.loaded(.success(allRead))) {
            $0.isLoading = false
            $0.notifications = allRead
        }
        #expect(marked.value == [nil] && store.state.badge == 0)
        await store.send(.markAllReadTapped)
        #expect(marked.value.count == 1)
    }

    @Test func clearAsksFirstThenClearsTheFilteredTypesAndReloads() async {
        let cleared = LockIsolated<[[NotificationType]?]>([])
        let remaining = LockIsolated(Self.listed)
        let store = makeStore(Feature.State(notifications: Self.listed, filter: .pings)) {
            $0.notificationClient.clear = { types in
                cleared.withValue { $0.append(types) }
                remaining.withValue { list in list.removeAll { types?.contains($0.type) ?? true } }
                return 2
            }
            $0.notificationClient.notifications = { remaining.value }
        }
        await store.send(.clearTapped) { $0.isConfirmingClear = true }
        await store.send(.clearCancelled) { $0.isConfirmingClear = false }
        // A stale confirmation (the dialog already gone) clears nothing.
        await store.send(.clearConfirmed)
        #expect(cleared.value.isEmpty)

        await store.send(.clearTapped) { $0.isConfirmingClear = true }
        await store.send(.clearConfirmed) { $0.isConfirmingClear = false }
        await store.receive(.cleared(.success(2))) { $0.isLoading = true }
        await store.receive(.loaded(.success([Self.alert, Self.reminder]))) {
            $0.isLoading = false
            $0.notifications = [Self.alert, Self.reminder]
        }
        #expect(cleared.value == [NotificationCategory.pings.types])
        // The pings filter now shows nothing, so there is nothing to confirm.
        await store.send(.clearTapped)

        // Unfiltered, "clear" deletes everything.
        await store.send(.filterChanged(nil)) { $0.filter = nil }
        await store.send(.clearTapped) { $0.isConfirmingClear = true }
        await store.send(.clearConfirmed) { $0.isConfirmingClear = false }
        await store.receive(.cleared(.success(2))) { $0.isLoading = true }
        await store.receive(.loaded(.success([]))) {
            $0.isLoading = false
            $0.notifications = []
        }
        #expect(cleared.value == [NotificationCategory.pings.types, nil])
    }

    @Test func failuresAreExplainedAndChangeNothingElse() async {
        let store = makeStore(Feature.State(notifications: Self.listed, filter: .alerts)) {
            $0.notificationClient.markRead = { _ in throw DomainError.forbidden("Not your notification") }
            $0.notificationClient.clear = { _ in throw DomainError.internal("database unavailable") }
        }
        await store.send(.markReadTapped(Self.alert.id))
        await store.receive(.markedRead(.failure(.forbidden("Not your notification")))) { $0.errorMessage = "Not your notification" }
        await store.send(.markAllReadTapped) { $0.errorMessage = nil }
        await store.receive(.markedRead(.failure(.forbidden("Not your notification")))) { $0.errorMessage = "Not your notification" }
        await store.send(.clearTapped) { $0.isConfirmingClear = true }
        await store.send(.clearConfirmed) {
            $0.isConfirmingClear = false
            $0.errorMessage = nil
        }
        await store.receive(.cleared(.failure(.internal("database unavailable")))) {
            $0.errorMessage = "Internal error: database unavailable"
        }
        #expect(store.state.notifications == Self.listed)
    }
}
