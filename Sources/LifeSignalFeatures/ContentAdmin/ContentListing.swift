import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The records of one tab, as loaded.
public enum ContentListing: Equatable, Sendable {
    case locations([Location])
    case events([Event])
    case routes([Route])

    /// One saved record, whichever table it belongs to.
    public enum Record: Equatable, Sendable {
        case location(Location)
        case event(Event)
        case route(Route)
    }

    public var names: [String] {
        switch self {
        case .locations(let records): records.map(\.name)
        case .events(let records): records.map(\.name)
        case .routes(let records): records.map(\.name)
        }
    }

    func name(of id: UUID) -> String? {
        switch self {
        case .locations(let records): records.first { $0.id == id }?.name
        case .events(let records): records.first { $0.id == id }?.name
        case .routes(let records): records.first { $0.id == id }?.name
        }
    }

    func editor(for id: UUID) -> ContentEditor? {
        switch self {
        case .locations(let records): records.first { $0.id == id }.map { .location($0.draft) }
        case .events(let records): records.first { $0.id == id }.map { .event($0.draft) }
        case .routes(let records): records.first { $0.id == id }.map { .route($0.draft) }
        }
    }
}

/// The create/edit form: a draft of the tab's kind.
public enum ContentEditor: Equatable, Sendable {
    case location(Location.Draft)
    case event(Event.Draft)
    case route(Route.Draft)

    static func blank(_ table: ContentTable) -> ContentEditor {
        switch table {
        case .locations: .location(.init(name: ""))
        case .events: .event(.init(name: ""))
        case .routes: .route(.init(name: ""))
        }
    }

    /// Whether saving creates a record rather than updating one.
    public var isNew: Bool {
        switch self {
        case .location(let draft): draft.id == nil
        case .event(let draft): draft.id == nil
        case .route(let draft): draft.id == nil
        }
    }

    func save(with content: ContentClient) async throws -> ContentListing.Record {
        switch self {
        case .location(let draft): .location(try await content.saveLocation(draft))
        case .event(let draft): .event(try await content.saveEvent(draft))
        case .route(let draft): .route(try await content.saveRoute(draft))
        }
    }
}
