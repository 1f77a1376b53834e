import Foundation

/// A row of `locations`: a place the admin publishes (a winery, a town).
public struct Location: ContentRecord {
    public static let table = ContentTable.locations
    public var id: UUID
    public var name: String
    public var slug: String
    public var region: String?
    public var shortDescription: String?
    public var websiteURL: String?
    public var status: ContentStatus
    public var sortOrder: Int
    public var createdBy: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(
        id: UUID, name: String, slug: String, region: String? = nil, shortDescription: String? = nil,
        websiteURL: String? = nil, status: ContentStatus = .draft, sortOrder: Int = 0, createdBy: UUID? = nil,
        createdAt: Date, updatedAt: Date, deletedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.slug = slug
        self.region = region
        self.shortDescription = shortDescription
        self.websiteURL = websiteURL
        self.status = status
        self.sortOrder = sortOrder
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deletedAt = deletedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name, slug, region, status
        case shortDescription = "short_description"
        case websiteURL = "website_url"
        case sortOrder = "sort_order"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case deletedAt = "deleted_at"
    }

    public var draft: Draft {
        Draft(
            id: id, name: name, slug: slug, region: region, shortDescription: shortDescription,
            websiteURL: websiteURL, status: status, sortOrder: sortOrder)
    }

    /// A location as the admin form fills it.
    public struct Draft: ContentDraft {
        public typealias Record = Location
        public var id: UUID?
        public var name: String
        /// Made from the name when empty.
        public var slug: String?
        public var region: String?
        public var shortDescription: String?
        /// `https://` is added to a bare host.
        public var websiteURL: String?
        public var status: ContentStatus
        public var sortOrder: Int

        public init(
            id: UUID? = nil, name: String, slug: String? = nil, region: String? = nil, shortDescription: String? = nil,
            websiteURL: String? = nil, status: ContentStatus = .draft, sortOrder: Int = 0
        ) {
            self.id = id
            self.name = name
            self.slug = slug
            self.region = region
            self.shortDescription = shortDescription
            self.websiteURL = websiteURL
            self.status = status
            self.sortOrder = sortOrder
        }

        public func columns() throws -> ContentColumns {
            let name = try ContentRules.name(name)
            return [
                "name": .text(name), "slug": .text(try ContentRules.slug(slug, name: name)),
                "region": ContentValue(region), "short_description": ContentValue(shortDescription),
                "website_url": ContentValue(try ContentRules.normalizeURL(websiteURL)),
                "status": .text(status.rawValue), "sort_order": try ContentRules.sortOrder(sortOrder),
            ]
        }
    }
}
