import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// The content commands' way through the content admin screen's reducer: open a tab with
/// filters, save a form, edit a listed record, delete one after the screen's confirmation.
@MainActor
enum ContentScreen {
    typealias Screen = ScreenDriver<ContentAdminFeature.State, ContentAdminFeature.Action>

    /// The tab, loaded with the contract's filters.
    static func open(_ options: ClientOptions, _ table: ContentTable, _ filter: EventFilter = EventFilter()) async throws -> Screen {
        let state = ContentAdminFeature.State(tab: table, search: filter.search ?? "", status: filter.status, from: filter.from, to: filter.to)
        let screen = Screen(state, clients: try options.clients(), errorMessage: \.errorMessage) { ContentAdminFeature() }
        try await screen.send(.task)
        return screen
    }

    static func list(_ options: ClientOptions, _ table: ContentTable, _ filter: EventFilter = EventFilter()) async throws -> ContentListing {
        guard let listing = try await open(options, table, filter).state.listing else { throw DomainError.internal("Nothing was listed") }
        return listing
    }

    /// A new record from the form.
    static func add(_ options: ClientOptions, _ editor: ContentEditor) async throws -> ContentListing.Record {
        let screen = try await open(options, editor.table)
        try await screen.send(.newTapped)
        try await screen.send(.editorChanged(editor))
        return try await save(screen)
    }

    /// A listed record, its form changed by `change`, saved.
    static func edit(_ options: ClientOptions, _ table: ContentTable, _ id: UUID, _ change: (inout ContentEditor) throws -> Void) async throws
        -> ContentListing.Record
    {
        let screen = try await open(options, table)
        try await screen.send(.editTapped(id))
        guard var editor = screen.state.editor else { throw notFound(table, id) }
        try change(&editor)
        try await screen.send(.editorChanged(editor))
        return try await save(screen)
    }

    /// Soft-deletes a listed record; the screen asks "Delete …?", and running the command is the yes.
    static func delete(_ options: ClientOptions, _ table: ContentTable, _ id: UUID) async throws {
        let screen = try await open(options, table)
        try await screen.send(.deleteTapped(id))
        guard screen.state.pendingDelete != nil else { throw notFound(table, id) }
        try await screen.send(.deleteConfirmed)
    }

    private static func save(_ screen: Screen) async throws -> ContentListing.Record {
        try await screen.send(.saveTapped)
        for case .saved(.success(let record)) in screen.responses { return record }
        throw DomainError.internal("The record was not saved")
    }

    static func notFound(_ table: ContentTable, _ id: UUID) -> DomainError {
        .notFound("\(table.singular) \(id.uuidString.lowercased())")
    }
}

extension ContentEditor {
    var table: ContentTable {
        switch self {
        case .location: .locations
        case .event: .events
        case .route: .routes
        }
    }
}

extension ContentTable {
    /// "Location", "Event", "Route", as error messages name one record.
    var singular: String {
        switch self {
        case .locations: "Location"
        case .events: "Event"
        case .routes: "Route"
        }
    }
}

extension ContentListing {
    var locations: [Location] { if case .locations(let records) = self { records } else { [] } }
    var events: [Event] { if case .events(let records) = self { records } else { [] } }
    var routes: [Route] { if case .routes(let records) = self { records } else { [] } }
}

extension ContentListing.Record {
    /// The record for printing, whichever table it is from.
    var content: any ContentRecord {
        switch self {
        case .location(let record): record
        case .event(let record): record
        case .route(let record): record
        }
    }
}
