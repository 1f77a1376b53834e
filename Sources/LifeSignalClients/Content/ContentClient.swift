import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Locations, events and routes under seed `004_…`'s contract, on any backend.
///
/// Every adapter keeps the same promises: fetches return non-deleted records only, in
/// `sort_order` then name (start day for events) order, searching names case-insensitively
/// when the trimmed term is non-empty; saves return the stored record (created when the draft
/// has no id or its id is unknown, updated otherwise); deletes are soft, setting `deleted_at`.
/// Anyone may read; signing in is needed to write, and only a record's creator may change or
/// delete it. A record that is missing, deleted, or someone else's is reported as
/// ``DomainError/notFound(_:)`` or ``DomainError/forbidden(_:)``.
@DependencyClient
public struct ContentClient: Sendable {
    public var locations: @Sendable (_ filter: ContentFilter) async throws -> [Location]
    public var saveLocation: @Sendable (_ draft: Location.Draft) async throws -> Location
    public var deleteLocation: @Sendable (_ id: UUID) async throws -> Void
    public var events: @Sendable (_ filter: EventFilter) async throws -> [Event]
    public var saveEvent: @Sendable (_ draft: Event.Draft) async throws -> Event
    public var deleteEvent: @Sendable (_ id: UUID) async throws -> Void
    public var routes: @Sendable (_ filter: ContentFilter) async throws -> [Route]
    public var saveRoute: @Sendable (_ draft: Route.Draft) async throws -> Route
    public var deleteRoute: @Sendable (_ id: UUID) async throws -> Void
}

extension ContentClient: TestDependencyKey {
    public static let testValue = ContentClient()

    /// An in-memory catalogue of a small wine region, following the contract's rules exactly
    /// (so a screen previewed with it filters and sorts as it will against a backend).
    public static var previewValue: ContentClient {
        let store = PreviewContentStore(now: { Date(timeIntervalSince1970: 1_800_000_000) })
        return ContentClient(
            locations: { store.list(Location.self, admits: $0.admits) },
            saveLocation: { try store.save($0) },
            deleteLocation: { try store.delete(Location.self, id: $0) },
            events: { store.list(Event.self, admits: $0.admits) },
            saveEvent: { try store.save($0) },
            deleteEvent: { try store.delete(Event.self, id: $0) },
            routes: { store.list(Route.self, admits: $0.admits) },
            saveRoute: { try store.save($0) },
            deleteRoute: { try store.delete(Route.self, id: $0) })
    }
}

extension DependencyValues {
    public var contentClient: ContentClient {
        get { self[ContentClient.self] }
        set { self[ContentClient.self] = newValue }
    }
}
