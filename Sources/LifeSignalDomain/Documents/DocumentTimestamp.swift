import Foundation
import RFC3339

/// RFC 3339 timestamps as Firestore writes them: UTC, `Z`, six fractional digits
/// (`2024-05-01T12:30:00.123456Z`).
///
/// A document's timestamp must come back from every backend to the microsecond (``RFC3339``).
public enum DocumentTimestamp {
    /// The earliest and latest instants Firestore stores (years 1 to 9999).
    public static let range = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999999)

    /// `date` to the microsecond, as it will be stored.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(RFC3339.clampedMicroseconds(date)) / 1_000_000)
    }

    public static func string(from date: Date) -> String { RFC3339.format(date, zone: .z) }

    /// Reads RFC 3339 exactly (``RFC3339/Profile/strict``); digits past microseconds are dropped.
    public static func date(from string: String) -> Date? { RFC3339.parse(string, .strict) }
}
