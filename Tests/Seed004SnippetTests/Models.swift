import Foundation

// The model types and helpers the seed-004 snippets assume but do not define. Their shapes
// follow from how the snippets use them (`location.status.rawValue`, `location.slug ??
// slugify(…)`, `location.websiteUrl.map { normalizeUrl($0) }`, snake_case memberwise labels
// on the insert/update payloads) and from the content tables' columns.

/// A location's publication state; the snippets send `status.rawValue`.
enum LocationStatus: String, Codable, Sendable {
    case draft, published, archived
}

/// A row of `locations`.
struct Location: Codable, Sendable, Equatable, Identifiable {
    var id: UUID
    var name: String
    var slug: String?
    var region: String?
    var shortDescription: String?
    var websiteUrl: String?
    var status: LocationStatus
    var sortOrder: Int
    var createdBy: UUID?
    var createdAt: Date?
    var updatedAt: Date?
    var deletedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, region, status
        case shortDescription = "short_description"
        case websiteUrl = "website_url"
        case sortOrder = "sort_order"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case deletedAt = "deleted_at"
    }
}

/// A row of `events` (dates are `date` columns, read and compared as `YYYY-MM-DD` text).
struct Event: Codable, Sendable, Equatable, Identifiable {
    var id: UUID
    var name: String
    var slug: String
    var description: String?
    var hostOrg: String?
    var startDate: String?
    var endDate: String?
    var startTime: String?
    var endTime: String?
    var location: String?
    var recurrence: String?
    var websiteUrl: String?
    var imageUrl: String?
    var status: String
    var sortOrder: Int
    var createdBy: UUID?
    var deletedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, description, location, recurrence, status
        case hostOrg = "host_org"
        case startDate = "start_date"
        case endDate = "end_date"
        case startTime = "start_time"
        case endTime = "end_time"
        case websiteUrl = "website_url"
        case imageUrl = "image_url"
        case sortOrder = "sort_order"
        case createdBy = "created_by"
        case deletedAt = "deleted_at"
    }
}

/// A row of `routes`.
struct Route: Codable, Sendable, Equatable, Identifiable {
    var id: UUID
    var name: String
    var slug: String
    var durationMinutes: Int?
    var difficulty: String
    var status: String
    var sortOrder: Int
    var createdBy: UUID?
    var deletedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, slug, difficulty, status
        case durationMinutes = "duration_minutes"
        case sortOrder = "sort_order"
        case createdBy = "created_by"
        case deletedAt = "deleted_at"
    }
}

/// The insert payload; its snake_case property names are the column names, which is why the
/// snippet's memberwise labels are snake_case.
struct LocationInsertData: Encodable, Sendable {
    var name: String
    var slug: String
    var region: String?
    var short_description: String?
    var website_url: String?
    var status: String
    var sort_order: Int
    var created_by: UUID?
}

/// The update payload (everything but `created_by`).
struct LocationUpdateData: Encodable, Sendable {
    var name: String
    var slug: String
    var region: String?
    var short_description: String?
    var website_url: String?
    var status: String
    var sort_order: Int
}

/// `"Old Paris Road"` → `"old-paris-road"`.
func slugify(_ name: String) -> String {
    name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
}

/// Adds `https://` to a bare host.
func normalizeUrl(_ url: String) -> String {
    url.hasPrefix("http://") || url.hasPrefix("https://") ? url : "https://" + url
}
