import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The content admin screen: tabs, filters (search debounced on a test clock), the form and
/// soft delete, every state change and effect asserted.
@MainActor
@Suite(.reportsIssues) struct ContentAdminFeatureTests {
    let clock = TestClock()
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    static func location(_ name: String, id: UUID = UUID(), sortOrder: Int = 0) throws -> Location {
        try Location.Draft(name: name, sortOrder: sortOrder).stored(id: id, createdBy: nil, createdAt: at, updatedAt: at)
    }

    func makeStore(
        _ state: ContentAdminFeature.State = .init(),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<ContentAdminFeature.State, ContentAdminFeature.Action> {
        TestStore(initialState: state) {
            ContentAdminFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
            dependencies(&$0)
        }
    }

    @Test func taskLoadsLocationsAndSearchIsDebounced() async throws {
        let all = [try Self.location("Cellar"), try Self.location("Mill")]
        let filters = LockIsolated<[ContentFilter]>([])
        let store = makeStore {
            $0.contentClient.locations = { filter in
                filters.withValue { $0.append(filter) }
                return all.filter(filter.admits)
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(.locations(all)))) {
            $0.isLoading = false
            $0.listing = .locations(all)
        }
        // Three keystrokes inside 300 ms: one reload, with the last text.
        // Each wait makes sure the new debounce is asleep before time moves.
        await store.send(.searchChanged("c")) { $0.search = "c" }
        await clock.waitForSleepers()
        await clock.advance(by: .milliseconds(100))
        await store.send(.searchChanged("ce")) { $0.search = "ce" }
        await clock.waitForSleepers()
        await clock.advance(by: .milliseconds(100))
        await store.send(.searchChanged("cel")) { $0.search = "cel" }
        await clock.waitForSleepers()
        await clock.advance(by: .milliseconds(299))
        #expect(filters.value.count == 1)
        await clock.advance(by: .milliseconds(1))
        await store.receive(.searchSettled) { $0.isLoading = true }
        await store.receive(.loaded(.success(.locations([all[0]])))) {
            $0.isLoading = false
            $0.listing = .locations([all[0]])
        }
        #expect(filters.value == [ContentFilter(search: ""), ContentFilter(search: "cel")])
    }

    @Test func statusAndTabsReloadAtOnceAndEventsGetTheDayWindow() async throws {
        let from = try CalendarDay("2027-01-01")
        let to = try CalendarDay("2027-01-31")
        let event = try Event.Draft(name: "Fair", startDate: from).stored(id: UUID(), createdBy: nil, createdAt: Self.at, updatedAt: Self.at)
        let eventFilters = LockIsolated<[EventFilter]>([])
        let store = makeStore {
            $0.contentClient.routes = { _ in [] }
            $0.contentClient.events = { filter in
                eventFilters.withValue { $0.append(filter) }
                return [event]
            }
        }
        await store.send(.tabSelected(.routes)) {
            $0.tab = .routes
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.routes([])))) {
            $0.isLoading = false
            $0.listing = .routes([])
        }
        await store.send(.tabSelected(.events)) {
            $0.tab = .events
            $0.listing = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.events([event])))) {
            $0.isLoading = false
            $0.listing = .events([event])
        }
        await store.send(.statusFilterChanged(.published)) {
            $0.status = .published
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.events([event])))) { $0.isLoading = false }
        await store.send(.dayWindowChanged(from: from, to: to)) {
            $0.from = from
            $0.to = to
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.events([event])))) { $0.isLoading = false }
        // A window that ends before it starts is explained, not sent.
        await store.send(.dayWindowChanged(from: to, to: from)) {
            $0.errorMessage = "The window ends (2027-01-01) before it starts (2027-01-31)"
        }
        #expect(
            eventFilters.value == [
                EventFilter(search: ""), EventFilter(search: "", status: .published),
                EventFilter(search: "", status: .published, from: from, to: to),
            ])
    }

    @Test func createEditAndAFailedSaveKeepsTheForm() async throws {
        let created = try Self.location("Cellar")
        let saved = LockIsolated<[Location.Draft]>([])
        let failNext = LockIsolated(false)
        let store = makeStore {
            $0.contentClient.locations = { _ in saved.value.isEmpty ? [] : [created] }
            $0.contentClient.saveLocation = { draft in
                if failNext.value { throw DomainError.alreadyExists("A location with the slug \"cellar\"") }
                saved.withValue { $0.append(draft) }
                return created
            }
        }
        await store.send(.newTapped) { $0.editor = .location(.init(name: "")) }
        await store.send(.editorChanged(.location(.init(name: "Cellar")))) { $0.editor = .location(.init(name: "Cellar")) }
        await store.send(.saveTapped) { $0.isSaving = true }
        await store.receive(.saved(.success(.location(created)))) {
            $0.isSaving = false
            $0.editor = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.locations([created])))) {
            $0.isLoading = false
            $0.listing = .locations([created])
        }
        #expect(saved.value == [Location.Draft(name: "Cellar")])

        await store.send(.editTapped(created.id)) { $0.editor = .location(created.draft) }
        #expect(store.state.editor?.isNew == false)
        failNext.setValue(true)
        await store.send(.saveTapped) { $0.isSaving = true }
        await store.receive(.saved(.failure(.alreadyExists("A location with the slug \"cellar\"")))) {
            $0.isSaving = false
            $0.errorMessage = "A location with the slug \"cellar\" already exists"
        }
        await store.send(.cancelEditTapped) {
            $0.editor = nil
            $0.errorMessage = nil
        }
        // Unknown ids do nothing.
        await store.send(.editTapped(UUID()))
    }

    @Test func deleteAsksFirstThenReloads() async throws {
        let cellar = try Self.location("Cellar")
        let mill = try Self.location("Mill")
        let deleted = LockIsolated<[UUID]>([])
        let store = makeStore(.init(listing: .locations([cellar, mill]))) {
            $0.contentClient.locations = { _ in [cellar, mill].filter { !deleted.value.contains($0.id) } }
            $0.contentClient.deleteLocation = { id in
                if deleted.value.contains(id) { throw DomainError.notFound("Location \(id)") }
                deleted.withValue { $0.append(id) }
            }
        }
        await store.send(.deleteTapped(mill.id)) {
            $0.pendingDelete = .init(table: .locations, id: mill.id, name: "Mill")
        }
        await store.send(.deleteCancelled) { $0.pendingDelete = nil }
        #expect(deleted.value.isEmpty)
        await store.send(.deleteTapped(mill.id)) {
            $0.pendingDelete = .init(table: .locations, id: mill.id, name: "Mill")
        }
        await store.send(.deleteConfirmed) { $0.pendingDelete = nil }
        await store.receive(.deleted(.success(mill.id))) { $0.isLoading = true }
        await store.receive(.loaded(.success(.locations([cellar])))) {
            $0.isLoading = false
            $0.listing = .locations([cellar])
        }
        #expect(deleted.value == [mill.id])
    }

    @Test func aFailedDeleteIsExplainedAndTheListReloaded() async throws {
        let mill = try Self.location("Mill")
        let store = makeStore(.init(listing: .locations([mill]))) {
            $0.contentClient.locations = { _ in [] }
            $0.contentClient.deleteLocation = { _ in throw ContentRules.notCreator(.locations) }
        }
        await store.send(.deleteTapped(mill.id)) { $0.pendingDelete = .init(table: .locations, id: mill.id, name: "Mill") }
        await store.send(.deleteConfirmed) { $0.pendingDelete = nil }
        await store.receive(.deleted(.failure(ContentRules.notCreator(.locations)))) {
            $0.errorMessage = "Only the person who created this location may change or delete it"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(.locations([])))) {
            $0.isLoading = false
            $0.listing = .locations([])
        }
    }
}
