import Foundation

/// A row of `routes`: a walk or drive between two points, with an optional GPX track.
public struct Route: ContentRecord {
    public static let table = ContentTable.routes
    public var id: UUID
    public var name: String
    public var slug: String
    public var gpxURL: String?
    public var durationMinutes: Int?
    public var startPoint: String?
    public var endPoint: String?
    public var difficulty: RouteDifficulty
    public var notes: String?
    public var status: ContentStatus
    public var sortOrder: Int
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(
        id: UUID, name: String, slug: String, gpxURL: String? = nil, durationMinutes: Int? = nil,
        startPoint: String? = nil, endPoint: String? = nil, difficulty: RouteDifficulty = .easy, notes: String? = nil,
        status: ContentStatus = .draft, sortOrder: Int = 0, createdBy: UUID? = nil,
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.slug = slug
        self.gpxURL = gpxURL
        self.durationMinutes = durationMinutes
        self.startPoint = startPoint
        self.endPoint = endPoint
        self.difficulty = difficulty
        self.notes = notes
        self.status = status
        self.sortOrder = sortOrder
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, slug, difficulty, notes, status
        case gpxURL = "gpx_url"
        case durationMinutes = "duration_minutes"
        case startPoint = "start_point"
        case endPoint = "end_point"
        case sortOrder = "sort_order"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case deletedAt = "deleted_at"
    }

    public var draft: Draft {
        Draft(
            id: id, name: name, slug: slug, gpxURL: gpxURL, durationMinutes: durationMinutes, startPoint: startPoint,
            endPoint: endPoint, difficulty: difficulty, notes: notes, status: status, sortOrder: sortOrder)
    }

    /// A route as the admin form fills it.
    public struct Draft: ContentDraft {
        public typealias Record = Route
        public var id: UUID?
        public var name: String
        public var slug: String?
        public var gpxURL: String?
        /// Minutes, zero or more.
        public var durationMinutes: Int?
        public var startPoint: String?
        public var endPoint: String?
        public var difficulty: RouteDifficulty
        public var notes: String?
        public var status: ContentStatus
        public var sortOrder: Int

        public init(
            id: UUID? = nil, name: String, slug: String? = nil, gpxURL: String? = nil, durationMinutes: Int? = nil,
            startPoint: String? = nil, endPoint: String? = nil, difficulty: RouteDifficulty = .easy, notes: String? = nil,
            status: ContentStatus = .draft, sortOrder: Int = 0
        ) {
            self.id = id
            self.name = name
            self.slug = slug
            self.gpxURL = gpxURL
            self.durationMinutes = durationMinutes
            self.startPoint = startPoint
            self.endPoint = endPoint
            self.difficulty = difficulty
            self.notes = notes
            self.status = status
            self.sortOrder = sortOrder
        }

        public func columns() throws -> ContentColumns {
            if let minutes = durationMinutes, !(0...Int(Int32.max)).contains(minutes) {
                throw DomainError.invalidArgument("A route's duration is 0 minutes or more, not \(minutes)")
            }
            let name = try ContentRules.name(name)
            return [
                "name": .text(name), "slug": .text(try ContentRules.slug(slug, name: name)),
                "gpx_url": ContentValue(try ContentRules.normalizeURL(gpxURL)), "duration_minutes": ContentValue(durationMinutes),
                "start_point": ContentValue(startPoint), "end_point": ContentValue(endPoint),
                "difficulty": .text(difficulty.rawValue), "notes": ContentValue(notes),
                "status": .text(status.rawValue), "sort_order": try ContentRules.sortOrder(sortOrder),
            ]
        }
    }
}
