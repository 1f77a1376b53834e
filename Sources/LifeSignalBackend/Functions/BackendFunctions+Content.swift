import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// Seed `004_…`'s content API as functions over ``ContentService``, for backends whose
    /// clients have no PostgREST (on Firebase the original app's backend is Cloud Functions).
    /// The rules are the service's, so they match the local and PostgREST paths exactly:
    /// editors read every non-deleted record, everyone else published ones without their
    /// creator; editors create, only the creator changes or deletes, and a draft that does not
    /// validate is refused before anything is written.
    ///
    /// Records travel as PostgREST returns their rows (snake_case columns, lower-case ids,
    /// times in ``Timestamp`` form), drafts as the seed's insert objects
    /// (``LocationFields``, ``EventFields``, ``RouteFields``).
    static let contentFunctions: [Registration] = [
        raw(CloudFunctions.listContent(reply: Data.self)) { backend, caller, body in
            let request = try decode(ListContentRequest.self, from: body)
            let (limit, offset) = try page(request)
            let filter = ContentFilter(search: request.search, status: try WireField.status(request.status))
            let from = try request.from.map { try WireField.day($0, field: "from") }
            let to = try request.to.map { try WireField.day($0, field: "to") }
            let table = try table(request.table)
            if table != .events, from != nil || to != nil {
                throw DomainError.invalidArgument("from and to filter events only, not \(table.rawValue)")
            }
            let content = backend.content
            switch table {
            case .locations:
                return try ContentWire.reply(records: try await content.list(Location.self, filter: filter, limit: limit, offset: offset, viewer: caller))
            case .events:
                return try ContentWire.reply(
                    records: try await content.list(
                        Event.self, filter: filter, from: from, to: to, limit: limit, offset: offset, viewer: caller))
            case .routes:
                return try ContentWire.reply(records: try await content.list(Route.self, filter: filter, limit: limit, offset: offset, viewer: caller))
            }
        },
        raw(CloudFunctions.getContent(reply: Data.self)) { backend, caller, body in
            let request = try decode(ContentIDRequest.self, from: body)
            let id = try WireField.uuid(request.id, field: "id")
            let content = backend.content
            switch try table(request.table) {
            case .locations: return try ContentWire.reply(record: try await content.record(Location.self, id: id, viewer: caller))
            case .events: return try ContentWire.reply(record: try await content.record(Event.self, id: id, viewer: caller))
            case .routes: return try ContentWire.reply(record: try await content.record(Route.self, id: id, viewer: caller))
            }
        },
        raw(CloudFunctions.saveContent(EmptyRequest.self, reply: Data.self)) { backend, caller, body in
            let content = backend.content
            switch try table(try decode(ContentTableRequest.self, from: body).table) {
            case .locations:
                let fields = try decode(SaveContentRequest<LocationFields>.self, from: body).record
                return try ContentWire.reply(record: try await content.save(try fields.draft(), caller: caller))
            case .events:
                let fields = try decode(SaveContentRequest<EventFields>.self, from: body).record
                return try ContentWire.reply(record: try await content.save(try fields.draft(), caller: caller))
            case .routes:
                let fields = try decode(SaveContentRequest<RouteFields>.self, from: body).record
                return try ContentWire.reply(record: try await content.save(try fields.draft(), caller: caller))
            }
        },
        handle(CloudFunctions.deleteContent) { backend, caller, request in
            let id = try WireField.uuid(request.id, field: "id")
            let content = backend.content
            switch try table(request.table) {
            case .locations: try await content.delete(Location.self, id: id, caller: caller)
            case .events: try await content.delete(Event.self, id: id, caller: caller)
            case .routes: try await content.delete(Route.self, id: id, caller: caller)
            }
            return SuccessResponse()
        },
    ]

    static func table(_ text: String) throws(DomainError) -> ContentTable {
        guard let table = ContentTable(rawValue: text) else {
            throw .invalidArgument("table must be one of locations, events, routes, not \"\(text.prefix(40))\"")
        }
        return table
    }

    private static func page(_ request: ListContentRequest) throws(DomainError) -> (limit: Int, offset: Int) {
        let limit = request.limit ?? ContentPaging.pageLimit
        let offset = request.offset ?? 0
        guard (1...ContentPaging.pageLimit).contains(limit) else {
            throw .invalidArgument("limit must be between 1 and \(ContentPaging.pageLimit), not \(limit)")
        }
        guard (0...ContentPaging.offsetLimit).contains(offset) else {
            throw .invalidArgument("offset must be between 0 and \(ContentPaging.offsetLimit), not \(offset)")
        }
        return (limit, offset)
    }
}
