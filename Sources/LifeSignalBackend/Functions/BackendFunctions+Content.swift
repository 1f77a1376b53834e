import Foundation
import LifeSignalDomain

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
    static let contentFunctions: [String: Handler] = [
        "list-content": { backend, caller, body in
            let request = try decode(ListContentRequest.self, from: body)
            let (limit, offset) = try page(request)
            let filter = ContentFilter(search: request.search, status: try status(request.status))
            let from = try request.from.map { try day($0, field: "from") }, to = try request.to.map { try day($0, field: "to") }
            let table = try table(request.table)
            if table != .events, from != nil || to != nil {
                throw DomainError.invalidArgument("from and to filter events only, not \(table.rawValue)")
            }
            let content = backend.content
            switch table {
            case .locations:
                return try ContentWire.reply(records: try await content.list(Location.self, filter: filter, limit: limit, offset: offset, viewer: caller))
            case .events:
                return try ContentWire.reply(records: try await content.list(
                    Event.self, filter: filter, from: from, to: to, limit: limit, offset: offset, viewer: caller))
            case .routes:
                return try ContentWire.reply(records: try await content.list(Route.self, filter: filter, limit: limit, offset: offset, viewer: caller))
            }
        },
        "get-content": { backend, caller, body in
            let request = try decode(ContentIDRequest.self, from: body)
            let id = try uuid(request.id, field: "id"), content = backend.content
            switch try table(request.table) {
            case .locations: return try ContentWire.reply(record: try await content.record(Location.self, id: id, viewer: caller))
            case .events: return try ContentWire.reply(record: try await content.record(Event.self, id: id, viewer: caller))
            case .routes: return try ContentWire.reply(record: try await content.record(Route.self, id: id, viewer: caller))
            }
        },
        "save-content": { backend, caller, body in
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
        "delete-content": { backend, caller, body in
            let request = try decode(ContentIDRequest.self, from: body)
            let id = try uuid(request.id, field: "id"), content = backend.content
            switch try table(request.table) {
            case .locations: try await content.delete(Location.self, id: id, caller: caller)
            case .events: try await content.delete(Event.self, id: id, caller: caller)
            case .routes: try await content.delete(Route.self, id: id, caller: caller)
            }
            return try encode(SuccessResponse())
        },
    ]

    /// The most records one `list-content` call returns: Supabase's default `max_rows`, so a
    /// client pages the same way over either wire.
    public static let contentPageLimit = 1000
    /// The furthest page `list-content` starts at: far past any real table, and it keeps a
    /// client's offset from making the database walk an unbounded number of rows.
    public static let contentOffsetLimit = 1_000_000

    static func table(_ text: String) throws(DomainError) -> ContentTable {
        guard let table = ContentTable(rawValue: text) else {
            throw .invalidArgument("table must be one of locations, events, routes, not \"\(text.prefix(40))\"")
        }
        return table
    }

    static func status(_ text: String?) throws(DomainError) -> ContentStatus? {
        guard let text else { return nil }
        guard let status = ContentStatus(rawValue: text) else {
            throw .invalidArgument("status must be one of draft, published, archived, not \"\(text.prefix(40))\"")
        }
        return status
    }

    static func day(_ text: String, field: String) throws(DomainError) -> CalendarDay {
        do { return try CalendarDay(text) } catch { throw .invalidArgument("\(field): \"\(text.prefix(40))\" is not a day in YYYY-MM-DD form") }
    }

    private static func page(_ request: ListContentRequest) throws(DomainError) -> (limit: Int, offset: Int) {
        let limit = request.limit ?? contentPageLimit, offset = request.offset ?? 0
        guard (1...contentPageLimit).contains(limit) else {
            throw .invalidArgument("limit must be between 1 and \(contentPageLimit), not \(limit)")
        }
        guard (0...contentOffsetLimit).contains(offset) else {
            throw .invalidArgument("offset must be between 0 and \(contentOffsetLimit), not \(offset)")
        }
        return (limit, offset)
    }
}

/// Content records as the functions reply with them: the rows PostgREST would return.
public enum ContentWire {
    /// Reads the records of a reply; times in ``Timestamp`` form (what ``reply(record:)`` writes).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a time"))
            }
            return date
        }
        return decoder
    }

    static func reply(record: some ContentRecord) throws -> Data {
        try JSONSerialization.data(withJSONObject: try object(record), options: [.sortedKeys])
    }

    /// `{"records": [...]}`.
    static func reply(records: [some ContentRecord]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["records": try records.map(object)], options: [.sortedKeys])
    }

    /// The record's columns, with its ids lower-case as the database prints them.
    private static func object(_ record: some ContentRecord) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        guard var object = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any] else {
            throw DomainError.internal("\(type(of: record).table.noun) did not encode as an object")
        }
        for key in ["id", "created_by"] {
            if let id = object[key] as? String { object[key] = id.lowercased() }
        }
        return object
    }
}
