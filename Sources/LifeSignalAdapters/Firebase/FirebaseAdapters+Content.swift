import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Content through the callables `list-content`, `save-content` and `delete-content`:
    /// on Firebase the original app's content API is Cloud Functions over the same tables,
    /// so the rules (non-deleted only, the search, the day window, the order, who may write)
    /// are the backend's, exactly as on the other adapters. Reads need no sign-in; writes
    /// carry the ID token.
    public var contentClient: ContentClient {
        let content = FunctionContent(adapters: self)
        return ContentClient(
            locations: { try await content.list(Location.self, filter: $0) },
            saveLocation: { try await content.save(SaveContentRequest(table: .locations, record: LocationFields($0)), as: Location.self) },
            deleteLocation: { try await content.delete(Location.self, id: $0) },
            events: { try await content.list(Event.self, filter: $0.common, from: $0.from, to: $0.to) },
            saveEvent: { try await content.save(SaveContentRequest(table: .events, record: EventFields($0)), as: Event.self) },
            deleteEvent: { try await content.delete(Event.self, id: $0) },
            routes: { try await content.list(Route.self, filter: $0) },
            saveRoute: { try await content.save(SaveContentRequest(table: .routes, record: RouteFields($0)), as: Route.self) },
            deleteRoute: { try await content.delete(Route.self, id: $0) })
    }
}

/// The content functions called as Firebase callables. Replies are decoded here rather than
/// by the functions client, because records carry times in the backend's text form.
struct FunctionContent: Sendable {
    let adapters: FirebaseAdapters

    /// Every page of the contract's fetch: `list-content` answers at most
    /// ``ContentPaging/pageLimit`` records a call, so larger tables are read on
    /// with `offset` until a short page (the order ends with the id, so pages never overlap).
    func list<R: ContentRecord>(_ type: R.Type, filter: ContentFilter, from: CalendarDay? = nil, to: CalendarDay? = nil) async throws -> [R] {
        let limit = ContentPaging.pageLimit
        var records: [R] = []
        while true {
            let request = ListContentRequest(table: R.table, filter: filter, from: from, to: to, offset: records.count, limit: limit)
            let page: ContentPage<R> = try await call(CloudFunctions.listContent(reply: ContentPage<R>.self), request)
            records += page.records
            if page.records.count < limit { return records }
        }
    }

    func save<Fields: Codable & Sendable & Hashable, R: ContentRecord>(_ request: SaveContentRequest<Fields>, as type: R.Type) async throws -> R {
        try await call(CloudFunctions.saveContent(Fields.self, reply: R.self), request)
    }

    func delete<R: ContentRecord>(_ type: R.Type, id: UUID) async throws {
        let _: SuccessResponse = try await call(CloudFunctions.deleteContent, ContentIDRequest(table: R.table, id: id))
    }

    private func call<Request, Reply>(_ function: CloudFunction<Request, Reply>, _ body: Request) async throws -> Reply {
        let name = function.name
        let result: FirebaseJSON = try await adapters.call(name, body)
        do {
            return try ContentWire.decoder().decode(Reply.self, from: JSONEncoder().encode(result))
        } catch {
            throw DomainError.internal("The reply of \(name) does not decode as \(Reply.self): \(error)")
        }
    }
}

/// `list-content`'s reply: one page of records.
struct ContentPage<R: ContentRecord>: Decodable {
    var records: [R]
}
