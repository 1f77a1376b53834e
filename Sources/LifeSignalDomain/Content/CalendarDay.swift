import Foundation

/// A day without a time or zone: what a `date` column holds (`2026-05-01`).
///
/// Events are dated by day, so the contract's range filters compare days, never instants; a
/// `Date` would drag a time zone into a comparison that has none.
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The years a day may have: what a `date` column and the four-digit form both hold
    /// (PostgreSQL refuses year 0, and a fifth digit would break the text order).
    public static let years = 1...9999

    /// Parses `YYYY-MM-DD`, refusing days that do not exist (`2026-02-30`) and years outside
    /// ``years``.
    ///
    /// Only ASCII digits count: `Int(_:)` alone would also take a sign (`+999-+1-+1`), and a
    /// `Character` count would measure graphemes, not the bytes a database reads.
    public init(_ text: String) throws {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Self.number(parts[0]), let month = Self.number(parts[1]), let day = Self.number(parts[2]),
            Self.years.contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day)
        else { throw DomainError.invalidArgument("\"\(text)\" is not a day in YYYY-MM-DD form") }
        self.year = year
        self.month = month
        self.day = day
    }

    public init(year: Int, month: Int, day: Int) throws {
        try self.init("\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))")
    }

    /// The UTC day an instant falls on.
    public init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    public var description: String { "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))" }

    private static func pad(_ value: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a YYYY-MM-DD day"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The value of at most four ASCII digits, or `nil` for anything else.
    private static func number(_ digits: Substring.UTF8View) -> Int? {
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
