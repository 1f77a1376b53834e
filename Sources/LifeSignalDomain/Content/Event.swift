import Foundation

/// A row of `events`: something that happens on a day (or a span of days), perhaps undated.
public struct Event: ContentRecord {
    public static let table = ContentTable.events
    public var id: UUID
    public var name: String
    public var slug: String
    public var description: String?
    public var hostOrg: String?
    public var startDate: CalendarDay?
    public var endDate: CalendarDay?
    /// `HH:MM:SS`.
    public var startTime: String?
    public var endTime: String?
    public var location: String?
    public var recurrence: String?
    public var websiteURL: String?
    public var imageURL: String?
    public var keywords: [String]
    public var status: ContentStatus
    public var sortOrder: Int
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(
        id: UUID, name: String, slug: String, description: String? = nil, hostOrg: String? = nil,
        startDate: CalendarDay? = nil, endDate: CalendarDay? = nil, startTime: String? = nil, endTime: String? = nil,
        location: String? = nil, recurrence: String? = nil, websiteURL: String? = nil, imageURL: String? = nil,
        keywords: [String] = [], status: ContentStatus = .draft, sortOrder: Int = 0, createdBy: UUID? = nil,
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.slug = slug
        self.description = description
        self.hostOrg = hostOrg
        self.startDate = startDate
        self.endDate = endDate
        self.startTime = startTime
        self.endTime = endTime
        self.location = location
        self.recurrence = recurrence
        self.websiteURL = websiteURL
        self.imageURL = imageURL
        self.keywords = keywords
        self.status = status
        self.sortOrder = sortOrder
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

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
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case deletedAt = "deleted_at"
    }

    public var draft: Draft {
        Draft(
            id: id, name: name, slug: slug, description: description, hostOrg: hostOrg, startDate: startDate,
            endDate: endDate, startTime: startTime, endTime: endTime, location: location, recurrence: recurrence,
            websiteURL: websiteURL, imageURL: imageURL, keywords: keywords, status: status, sortOrder: sortOrder)
    }

    /// An event as the admin form fills it.
    public struct Draft: ContentDraft {
        public typealias Record = Event
        public var id: UUID?
        public var name: String
        public var slug: String?
        public var description: String?
        public var hostOrg: String?
        public var startDate: CalendarDay?
        /// On or after ``startDate`` when both are given.
        public var endDate: CalendarDay?
        /// `HH:MM` or `HH:MM:SS`.
        public var startTime: String?
        public var endTime: String?
        public var location: String?
        public var recurrence: String?
        public var websiteURL: String?
        public var imageURL: String?
        public var keywords: [String]
        public var status: ContentStatus
        public var sortOrder: Int

        public init(
            id: UUID? = nil, name: String, slug: String? = nil, description: String? = nil, hostOrg: String? = nil,
            startDate: CalendarDay? = nil, endDate: CalendarDay? = nil, startTime: String? = nil, endTime: String? = nil,
            location: String? = nil, recurrence: String? = nil, websiteURL: String? = nil, imageURL: String? = nil,
            keywords: [String] = [], status: ContentStatus = .draft, sortOrder: Int = 0
        ) {
            self.id = id
            self.name = name
            self.slug = slug
            self.description = description
            self.hostOrg = hostOrg
            self.startDate = startDate
            self.endDate = endDate
            self.startTime = startTime
            self.endTime = endTime
            self.location = location
            self.recurrence = recurrence
            self.websiteURL = websiteURL
            self.imageURL = imageURL
            self.keywords = keywords
            self.status = status
            self.sortOrder = sortOrder
        }

        public func columns() throws -> ContentColumns {
            if let startDate, let endDate, endDate < startDate {
                throw DomainError.invalidArgument("The event ends (\(endDate)) before it starts (\(startDate))")
            }
            let name = try ContentRules.name(name)
            let keywords = self.keywords.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            return [
                "name": .text(name), "slug": .text(try ContentRules.slug(slug, name: name)),
                "description": ContentValue(description), "host_org": ContentValue(hostOrg),
                "start_date": ContentValue(startDate), "end_date": ContentValue(endDate),
                "start_time": try ContentRules.timeOfDay(startTime), "end_time": try ContentRules.timeOfDay(endTime),
                "location": ContentValue(location), "recurrence": ContentValue(recurrence),
                "website_url": ContentValue(try ContentRules.normalizeURL(websiteURL)),
                "image_url": ContentValue(try ContentRules.normalizeURL(imageURL)),
                "keywords": .texts(keywords),
                "status": .text(status.rawValue), "sort_order": try ContentRules.sortOrder(sortOrder),
            ]
        }
    }
}
