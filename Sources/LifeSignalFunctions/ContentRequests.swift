import Foundation
import LifeSignalDomain

/// `list-content`: the contract's fetch of one table (`locations`, `events`, `routes`).
/// `search` is matched case-insensitively in names when its trimmed text is not empty;
/// `from`/`to` (`YYYY-MM-DD`) are the events' day window; `offset` (0…1,000,000) and `limit`
/// (1…1000, default 1000) take one page of the contract's order. Replies `{"records": [...]}`.
public struct ListContentRequest: Codable, Sendable, Hashable {
    public var table: String
    public var search: String?
    public var status: String?
    public var from: String?
    public var to: String?
    public var offset: Int?
    public var limit: Int?

    public init(table: ContentTable, filter: ContentFilter, from: CalendarDay? = nil, to: CalendarDay? = nil, offset: Int? = nil, limit: Int? = nil) {
        self.table = table.rawValue
        search = filter.search
        status = filter.status?.rawValue
        self.from = from?.description
        self.to = to?.description
        self.offset = offset
        self.limit = limit
    }
}

/// `get-content`, `delete-content`: one record by id.
public struct ContentIDRequest: Codable, Sendable, Hashable {
    public var table: String
    public var id: String

    public init(table: ContentTable, id: UUID) {
        self.table = table.rawValue
        self.id = id.uuidString.lowercased()
    }
}

/// The table of a `save-content` request, read before its record (whose shape it decides).
public struct ContentTableRequest: Decodable {
    public var table: String
}

/// `save-content`: the contract's upsert. Without an `id` in `record`, or with one no record
/// has, the record is created; otherwise it is updated. Replies with the stored record.
public struct SaveContentRequest<Fields: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var table: String
    public var record: Fields

    public init(table: ContentTable, record: Fields) {
        self.table = table.rawValue
        self.record = record
    }
}

/// The parsing every draft's fields share: a bad id or status is the caller's mistake.
public enum ContentFieldParsing {
    public static func id(_ text: String?) throws(DomainError) -> UUID? {
        try text.map { text throws(DomainError) in try WireField.uuid(text, field: "record.id") }
    }

    public static func status(_ text: String?) throws(DomainError) -> ContentStatus {
        try WireField.status(text) ?? .draft
    }

    public static func day(_ text: String?, field: String) throws(DomainError) -> CalendarDay? {
        try text.map { text throws(DomainError) in try WireField.day(text, field: "record.\(field)") }
    }
}

/// A location draft as the seed's insert object: snake_case, `status` and `sort_order`
/// optional (`draft`, 0).
public struct LocationFields: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String
    public var slug, region, shortDescription, websiteURL, status: String?
    public var sortOrder: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, region, status
        case shortDescription = "short_description"
        case websiteURL = "website_url"
        case sortOrder = "sort_order"
    }

    public init(_ draft: Location.Draft) {
        id = draft.id?.uuidString.lowercased()
        name = draft.name
        slug = draft.slug
        region = draft.region
        shortDescription = draft.shortDescription
        websiteURL = draft.websiteURL
        status = draft.status.rawValue
        sortOrder = draft.sortOrder
    }

    public func draft() throws(DomainError) -> Location.Draft {
        Location.Draft(
            id: try ContentFieldParsing.id(id), name: name, slug: slug, region: region, shortDescription: shortDescription,
            websiteURL: websiteURL, status: try ContentFieldParsing.status(status), sortOrder: sortOrder ?? 0)
    }
}

/// An event draft as the seed's insert object; days `YYYY-MM-DD`, times `HH:MM[:SS]`.
public struct EventFields: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String
    public var slug, description, hostOrg, startDate, endDate, startTime, endTime: String?
    public var location, recurrence, websiteURL, imageURL, status: String?
    public var keywords: [String]?
    public var sortOrder: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, description, location, recurrence, keywords, status
        case hostOrg = "host_org"
        case startDate = "start_date"
        case endDate = "end_date"
        case startTime = "start_time"
        case endTime = "end_time"
        case websiteURL = "website_url"
        case imageURL = "image_url"
        case sortOrder = "sort_order"
    }

    public init(_ draft: Event.Draft) {
        id = draft.id?.uuidString.lowercased()
        name = draft.name
        slug = draft.slug
        description = draft.description
        hostOrg = draft.hostOrg
        startDate = draft.startDate?.description
        endDate = draft.endDate?.description
        startTime = draft.startTime
        endTime = draft.endTime
        location = draft.location
        recurrence = draft.recurrence
        websiteURL = draft.websiteURL
        imageURL = draft.imageURL
        keywords = draft.keywords
        status = draft.status.rawValue
        sortOrder = draft.sortOrder
    }

    public func draft() throws(DomainError) -> Event.Draft {
        Event.Draft(
            id: try ContentFieldParsing.id(id), name: name, slug: slug, description: description, hostOrg: hostOrg,
            startDate: try ContentFieldParsing.day(startDate, field: "start_date"),
            endDate: try ContentFieldParsing.day(endDate, field: "end_date"), startTime: startTime, endTime: endTime,
            location: location, recurrence: recurrence, websiteURL: websiteURL, imageURL: imageURL, keywords: keywords ?? [],
            status: try ContentFieldParsing.status(status), sortOrder: sortOrder ?? 0)
    }
}

/// A route draft as the seed's insert object; `difficulty` defaults to `easy`.
public struct RouteFields: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String
    public var slug, gpxURL, startPoint, endPoint, difficulty, notes, status: String?
    public var durationMinutes, sortOrder: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, difficulty, notes, status
        case gpxURL = "gpx_url"
        case startPoint = "start_point"
        case endPoint = "end_point"
        case durationMinutes = "duration_minutes"
        case sortOrder = "sort_order"
    }

    public init(_ draft: Route.Draft) {
        id = draft.id?.uuidString.lowercased()
        name = draft.name
        slug = draft.slug
        gpxURL = draft.gpxURL
        startPoint = draft.startPoint
        endPoint = draft.endPoint
        difficulty = draft.difficulty.rawValue
        notes = draft.notes
        status = draft.status.rawValue
        durationMinutes = draft.durationMinutes
        sortOrder = draft.sortOrder
    }

    public func draft() throws(DomainError) -> Route.Draft {
        let level: RouteDifficulty
        if let difficulty {
            guard let parsed = RouteDifficulty(rawValue: difficulty) else {
                let names = RouteDifficulty.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidArgument("difficulty must be one of \(names), not \"\(difficulty.prefix(40))\"")
            }
            level = parsed
        } else {
            level = .easy
        }
        return Route.Draft(
            id: try ContentFieldParsing.id(id), name: name, slug: slug, gpxURL: gpxURL, durationMinutes: durationMinutes,
            startPoint: startPoint, endPoint: endPoint, difficulty: level, notes: notes,
            status: try ContentFieldParsing.status(status), sortOrder: sortOrder ?? 0)
    }
}

/// How far `list-content` pages, the same for the backend that enforces it and the clients
/// that page through it.
public enum ContentPaging {
    /// The most records one `list-content` call returns: Supabase's default `max_rows`, so a
    /// client pages the same way over either wire.
    public static let pageLimit = 1000
    /// The furthest page `list-content` starts at: far past any real table, and it keeps a
    /// client's offset from making the database walk an unbounded number of rows.
    public static let offsetLimit = 1_000_000
}
