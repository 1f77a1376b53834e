import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension ContentValue {
    /// The value bound for `dialect`. On PostgreSQL text goes untyped, so a day lands in a
    /// `date` column and a time in a `time` column without casts; keywords go as an array
    /// literal. SQLite stores days and times as text and arrays as JSON (migration 108).
    func sqlValue(_ dialect: SQLDialect) -> SQLValue {
        switch self {
        case .null: .null
        case .text(let text): dialect == .postgres ? .literal(text) : .text(text)
        case .int(let number): .int(Int64(number))
        case .uuid(let id): .uuid(id)
        case .day(let day): dialect == .postgres ? .literal(day.description) : .text(day.description)
        case .instant(let date): .timestamp(date)
        case .texts(let texts):
            dialect == .postgres ? .literal(ArrayLiteral.format(texts)) : .text(Self.jsonArray(texts))
        }
    }

    private static func jsonArray(_ texts: [String]) -> String {
        (try? JSONEncoder().encode(texts)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

extension SQLRow {
    func status() throws -> ContentStatus {
        let text = try string("status")
        guard let status = ContentStatus(rawValue: text) else { throw DatabaseError.decoding("status \"\(text)\"") }
        return status
    }

    func day(_ column: String) throws -> CalendarDay? {
        guard let text = optionalString(column) else { return nil }
        // PostgreSQL may print a `date` with a time part when read through a cast.
        return try CalendarDay(String(text.prefix(10)))
    }

    /// A `text[]` column: JSON on both engines by the time it is read (the PostgreSQL engine
    /// converts its binary array).
    func texts(_ column: String) throws -> [String] {
        guard let text = optionalString(column) else { return [] }
        guard let elements = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw DatabaseError.decoding("column \"\(column)\" holds \(text), expected an array")
        }
        return elements.compactMap { $0 as? String }
    }
}

extension ContentRecord {
    /// The record a row of its table holds.
    static func decode(_ row: SQLRow) throws -> Self {
        let record: any ContentRecord =
            switch table {
            case .locations: try Location(row: row)
            case .events: try Event(row: row)
            case .routes: try Route(row: row)
            }
        guard let typed = record as? Self else { throw DatabaseError.decoding("a \(table.noun) row read as \(Self.self)") }
        return typed
    }
}

extension Location {
    init(row: SQLRow) throws {
        self.init(
            id: try row.uuid("id"), name: try row.string("name"), slug: try row.string("slug"),
            region: row.optionalString("region"), shortDescription: row.optionalString("short_description"),
            websiteURL: row.optionalString("website_url"), status: try row.status(), sortOrder: try row.int("sort_order"),
            createdBy: row.optionalUUID("created_by"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), deletedAt: row.optionalDate("deleted_at"))
    }
}

extension Event {
    init(row: SQLRow) throws {
        self.init(
            id: try row.uuid("id"), name: try row.string("name"), slug: try row.string("slug"),
            description: row.optionalString("description"), hostOrg: row.optionalString("host_org"),
            startDate: try row.day("start_date"), endDate: try row.day("end_date"),
            startTime: row.optionalString("start_time"), endTime: row.optionalString("end_time"),
            location: row.optionalString("location"), recurrence: row.optionalString("recurrence"),
            websiteURL: row.optionalString("website_url"), imageURL: row.optionalString("image_url"),
            keywords: try row.texts("keywords"), status: try row.status(), sortOrder: try row.int("sort_order"),
            createdBy: row.optionalUUID("created_by"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"), deletedAt: row.optionalDate("deleted_at"))
    }
}

extension Route {
    init(row: SQLRow) throws {
        let difficultyText = try row.string("difficulty")
        guard let difficulty = RouteDifficulty(rawValue: difficultyText) else {
            throw DatabaseError.decoding("difficulty \"\(difficultyText)\"")
        }
        self.init(
            id: try row.uuid("id"), name: try row.string("name"), slug: try row.string("slug"),
            gpxURL: row.optionalString("gpx_url"), durationMinutes: row.optionalInt("duration_minutes"),
            startPoint: row.optionalString("start_point"), endPoint: row.optionalString("end_point"),
            difficulty: difficulty, notes: row.optionalString("notes"), status: try row.status(),
            sortOrder: try row.int("sort_order"), createdBy: row.optionalUUID("created_by"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"), deletedAt: row.optionalDate("deleted_at"))
    }
}
