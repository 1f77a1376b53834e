import Foundation

/// A row of one of the content tables: what every adapter returns and the contract's rules
/// (non-deleted only, sort order first) are stated over.
public protocol ContentRecord: Sendable, Hashable, Identifiable, Codable where ID == UUID {
    associatedtype Draft: ContentDraft where Draft.Record == Self
    static var table: ContentTable { get }
    var id: UUID { get }
    var name: String { get }
    var slug: String { get }
    var status: ContentStatus { get }
    var sortOrder: Int { get }
    /// Who created it: shown to content editors only (docs/security.md, "Content").
    var createdBy: UUID? { get set }
    var createdAt: Date { get }
    var deletedAt: Date? { get }
    /// The record as an editable draft, keeping its id (so saving it updates).
    var draft: Draft { get }
}

/// What a person fills in to create or edit a record. Without an ``id`` saving creates; with
/// one it updates that record, or creates it under that id when no such record exists (the
/// contract's upsert rule).
public protocol ContentDraft: Sendable, Hashable {
    associatedtype Record: ContentRecord
    var id: UUID? { get set }
    /// The validated columns to write: name trimmed, slug made or normalised, web addresses
    /// normalised; never `id`, `created_by` or the timestamps, which the backend owns.
    func columns() throws -> ContentColumns
}

/// The filters of the contract's fetch: a name search and a status.
public struct ContentFilter: Sendable, Hashable {
    /// Matched case-insensitively anywhere in the name; ignored when blank.
    public var search: String?
    public var status: ContentStatus?

    public init(search: String? = nil, status: ContentStatus? = nil) {
        self.search = search
        self.status = status
    }
}

/// The filters of the events fetch: the common ones and the contract's day window.
public struct EventFilter: Sendable, Hashable {
    public var search: String?
    public var status: ContentStatus?
    /// Keeps events that start or end on or after this day, and undated ones.
    public var from: CalendarDay?
    /// Keeps events that start on or before this day.
    public var to: CalendarDay?

    public init(search: String? = nil, status: ContentStatus? = nil, from: CalendarDay? = nil, to: CalendarDay? = nil) {
        self.search = search
        self.status = status
        self.from = from
        self.to = to
    }

    /// The filters without the day window.
    public var common: ContentFilter { ContentFilter(search: search, status: status) }
}

extension ContentFilter {
    /// Whether a record passes, exactly as the contract's query decides (used by the preview
    /// client and as the contract suite's oracle).
    public func admits(_ record: some ContentRecord) -> Bool {
        record.deletedAt == nil && (status.map { $0 == record.status } ?? true)
            && ContentRules.nameMatches(record.name, term: search)
    }
}

extension EventFilter {
    public func admits(_ event: Event) -> Bool {
        common.admits(event) && ContentRules.eventInWindow(start: event.startDate, end: event.endDate, from: from, to: to)
    }
}

extension ContentRules {
    /// Records in the contract's order: `sort_order`, then start day for events (undated
    /// last, where PostgreSQL puts NULL in ascending order), then name, then id so the order
    /// is total and pages never overlap.
    public static func sorted<R: ContentRecord>(_ records: [R]) -> [R] {
        records.sorted { lhs, rhs in
            if lhs.sortOrder != rhs.sortOrder { return lhs.sortOrder < rhs.sortOrder }
            if let lhs = lhs as? Event, let rhs = rhs as? Event, lhs.startDate != rhs.startDate {
                guard let left = lhs.startDate else { return false }
                guard let right = rhs.startDate else { return true }
                return left < right
            }
            if lhs.name != rhs.name { return lhs.name < rhs.name }
            return lhs.id.uuidString.lowercased() < rhs.id.uuidString.lowercased()
        }
    }
}
