import Foundation

/// RFC 3339 timestamps as Firestore writes them: UTC, `Z`, six fractional digits
/// (`2024-05-01T12:30:00.123456Z`).
///
/// Written by hand because `ISO8601DateFormatter` keeps only milliseconds, and a document's
/// timestamp must come back from every backend to the microsecond.
public enum DocumentTimestamp {
    /// The earliest and latest instants Firestore stores (years 1 to 9999).
    public static let range = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999999)

    /// `date` to the microsecond, as it will be stored.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(micros(date)) / 1_000_000)
    }

    static func micros(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard value.isFinite, abs(value) < 9e18 else { return 0 }
        return Int64(value)
    }

    public static func string(from date: Date) -> String {
        let total = micros(date)
        var seconds = total >= 0 ? total / 1_000_000 : (total - 999_999) / 1_000_000
        let fraction = total - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        seconds -= days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(abs(value))
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(seconds / 3600, 2) + ":"
            + pad(seconds % 3600 / 60, 2) + ":" + pad(seconds % 60, 2) + "." + pad(fraction, 6) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; digits past microseconds are dropped.
    public static func date(from string: String) -> Date? {
        let chars = Array(string.utf8)
        func number(_ start: Int, _ length: Int) -> Int64? {
            guard start + length <= chars.count else { return nil }
            var value: Int64 = 0
            for byte in chars[start..<(start + length)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard chars.count >= 20, let year = number(0, 4), chars[4] == 0x2D, let month = number(5, 2), chars[7] == 0x2D,
            let day = number(8, 2), chars[10] == 0x54 || chars[10] == 0x74, let hour = number(11, 2), chars[13] == 0x3A,
            let minute = number(14, 2), chars[16] == 0x3A, let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var micros: Int64 = 0
        if index < chars.count, chars[index] == 0x2E {
            index += 1
            var digits = 0
            while index < chars.count, chars[index] >= 0x30, chars[index] <= 0x39 {
                if digits < 6 { micros = micros * 10 + Int64(chars[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 6)..<6 { micros *= 10 }
        }
        guard index < chars.count else { return nil }
        var offset: Int64 = 0
        if chars[index] == 0x5A || chars[index] == 0x7A {
            index += 1
        } else if chars[index] == 0x2B || chars[index] == 0x2D, chars.count == index + 6, let oh = number(index + 1, 2),
            chars[index + 3] == 0x3A, let om = number(index + 4, 2)
        {
            offset = (oh * 3600 + om * 60) * (chars[index] == 0x2B ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == chars.count else { return nil }
        let seconds = CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds * 1_000_000 + micros) / 1_000_000)
    }
}
