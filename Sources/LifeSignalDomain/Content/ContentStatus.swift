/// Where a piece of content stands in publication (the SSA Admin schema's `status` enum).
public enum ContentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case draft
    case published
    case archived
}

/// How hard a route is (the schema's `difficulty` enum, default ``easy``).
public enum RouteDifficulty: String, Sendable, Hashable, Codable, CaseIterable {
    case easy
    case moderate
    case challenging
}

/// The three content tables of seed `004_…`.
public enum ContentTable: String, Sendable, Hashable, CaseIterable {
    case locations
    case events
    case routes

    /// The column the contract sorts by after `sort_order`.
    public var secondaryOrder: String { self == .events ? "start_date" : "name" }

    /// A person's word for one record of the table.
    public var noun: String {
        switch self {
        case .locations: "Location"
        case .events: "Event"
        case .routes: "Route"
        }
    }
}
