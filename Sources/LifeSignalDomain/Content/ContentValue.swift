import Foundation
import RFC3339

/// A column value of a content write, typed just enough for each backend to store it right: a
/// day goes to a `date` column, keywords to a `text[]`.
public enum ContentValue: Sendable, Hashable, Encodable {
    case null
    case text(String)
    case int(Int)
    case uuid(UUID)
    case day(CalendarDay)
    case instant(Date)
    case texts([String])

    public init(_ text: String?) { self = text.map(ContentValue.text) ?? .null }
    public init(_ number: Int?) { self = number.map(ContentValue.int) ?? .null }
    public init(_ day: CalendarDay?) { self = day.map(ContentValue.day) ?? .null }

    /// JSON as PostgREST takes it: days as `YYYY-MM-DD`, instants in ISO 8601 with
    /// milliseconds (the contract's `toISOString()` form), keywords as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .text(let text): try container.encode(text)
        case .int(let number): try container.encode(number)
        case .uuid(let id): try container.encode(id.uuidString.lowercased())
        case .day(let day): try container.encode(day.description)
        case .instant(let date): try container.encode(ContentValue.iso8601(date))
        case .texts(let texts): try container.encode(texts)
        }
    }

    /// `2026-11-23T10:15:30.123Z`: JavaScript's `toISOString()`, which the contract's soft
    /// delete writes.
    public static func iso8601(_ date: Date) -> String {
        RFC3339.format(date, fractionDigits: 3, zone: .z)
    }
}

/// A validated write: the columns to set, by name.
public typealias ContentColumns = [String: ContentValue]
