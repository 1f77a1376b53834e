import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The content admin screen of seed `004_…`: a tab per table (locations, events, routes), a
/// list filtered by search, status and (for events) a day window; a form to create or edit;
/// soft delete behind a confirmation.
///
/// Typing in the search field reloads after 300 ms of quiet on `\.continuousClock`, so a
/// word typed quickly costs one request; every other filter reloads at once. A reload cancels
/// the one in flight, so an older, slower answer never overwrites a newer one.
public struct ContentAdminFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var tab: ContentTable
        public var search: String
        public var status: ContentStatus?
        public var from: CalendarDay?
        public var to: CalendarDay?
        public var listing: ContentListing?
        public var isLoading: Bool
        /// The form, while creating or editing.
        public var editor: ContentEditor?
        public var isSaving: Bool
        /// The record waiting for "Delete?" to be confirmed.
        public var pendingDelete: PendingDelete?
        public var errorMessage: String?

        public init(
            tab: ContentTable = .locations, search: String = "", status: ContentStatus? = nil, from: CalendarDay? = nil,
            to: CalendarDay? = nil, listing: ContentListing? = nil, isLoading: Bool = false, editor: ContentEditor? = nil,
            isSaving: Bool = false, pendingDelete: PendingDelete? = nil, errorMessage: String? = nil
        ) {
            self.tab = tab
            self.search = search
            self.status = status
            self.from = from
            self.to = to
            self.listing = listing
            self.isLoading = isLoading
            self.editor = editor
            self.isSaving = isSaving
            self.pendingDelete = pendingDelete
            self.errorMessage = errorMessage
        }
    }

    public struct PendingDelete: Equatable, Sendable {
        public var table: ContentTable
        public var id: UUID
        public var name: String

        public init(table: ContentTable, id: UUID, name: String) {
            self.table = table
            self.id = id
            self.name = name
        }
    }

    public enum Action: Equatable, Sendable {
        case task
        case tabSelected(ContentTable)
        case searchChanged(String)
        case searchSettled
        case statusFilterChanged(ContentStatus?)
        case dayWindowChanged(from: CalendarDay?, to: CalendarDay?)
        case loaded(Result<ContentListing, DomainError>)
        case newTapped
        case editTapped(UUID)
        case editorChanged(ContentEditor)
        case cancelEditTapped
        case saveTapped
        case saved(Result<ContentListing.Record, DomainError>)
        case deleteTapped(UUID)
        case deleteConfirmed
        case deleteCancelled
        case deleted(Result<UUID, DomainError>)
    }

    enum CancelID { case load, searchDebounce }

    @Dependency(\.contentClient) var content
    @Dependency(\.continuousClock) var clock

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task, .searchSettled:
            return load(&state)

        case .tabSelected(let tab):
            guard tab != state.tab else { return .none }
            state.tab = tab
            state.listing = nil
            state.editor = nil
            state.pendingDelete = nil
            return load(&state)

        case .searchChanged(let text):
            state.search = text
            return .run { [clock] send in
                try await clock.sleep(for: .milliseconds(300))
                await send(.searchSettled)
            }
            .cancellable(id: CancelID.searchDebounce, cancelInFlight: true)

        case .statusFilterChanged(let status):
            state.status = status
            return load(&state)

        case .dayWindowChanged(let from, let to):
            if let from, let to, to < from {
                state.errorMessage = "The window ends (\(to)) before it starts (\(from))"
                return .none
            }
            state.from = from
            state.to = to
            return load(&state)

        case .loaded(.success(let listing)):
            state.isLoading = false
            state.listing = listing
            return .none

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .newTapped:
            state.editor = ContentEditor.blank(state.tab)
            state.errorMessage = nil
            return .none

        case .editTapped(let id):
            guard let editor = state.listing?.editor(for: id) else { return .none }
            state.editor = editor
            state.errorMessage = nil
            return .none

        case .editorChanged(let editor):
            state.editor = editor
            return .none

        case .cancelEditTapped:
            state.editor = nil
            state.errorMessage = nil
            return .none

        case .saveTapped:
            guard let editor = state.editor, !state.isSaving else { return .none }
            state.isSaving = true
            state.errorMessage = nil
            return .run { [content] send in
                await send(.saved(Result { try await editor.save(with: content) }.mapError(DomainError.init)))
            }

        case .saved(.success):
            state.isSaving = false
            state.editor = nil
            return load(&state)

        case .saved(.failure(let error)):
            // The form stays open with what was typed, so nothing is lost.
            state.isSaving = false
            state.errorMessage = error.message
            return .none

        case .deleteTapped(let id):
            guard let name = state.listing?.name(of: id) else { return .none }
            state.pendingDelete = PendingDelete(table: state.tab, id: id, name: name)
            return .none

        case .deleteCancelled:
            state.pendingDelete = nil
            return .none

        case .deleteConfirmed:
            guard let pending = state.pendingDelete else { return .none }
            state.pendingDelete = nil
            return .run { [content] send in
                await send(
                    .deleted(
                        Result {
                            switch pending.table {
                            case .locations: try await content.deleteLocation(pending.id)
                            case .events: try await content.deleteEvent(pending.id)
                            case .routes: try await content.deleteRoute(pending.id)
                            }
                            return pending.id
                        }.mapError(DomainError.init)))
            }

        case .deleted(.success):
            return load(&state)

        case .deleted(.failure(let error)):
            state.errorMessage = error.message
            return load(&state)
        }
    }

    /// Reloads the current tab with the current filters, replacing any load in flight.
    private func load(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        let (tab, filter) = (state.tab, EventFilter(search: state.search, status: state.status, from: state.from, to: state.to))
        return .run { [content] send in
            await send(
                .loaded(
                    Result {
                        switch tab {
                        case .locations: .locations(try await content.locations(filter.common))
                        case .events: .events(try await content.events(filter))
                        case .routes: .routes(try await content.routes(filter.common))
                        }
                    }.mapError(DomainError.init)))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
    }
}
