import Foundation

/// RFC 3339 timestamps as Firestore writes them: UTC, `Z`, six fractional digits
/// (`2024-05-01T12:30:00.123456Z`).
///
/// Done by hand rather than with `ISO8601DateFormatter` because that formatter keeps only
/// milliseconds and behaves differently across Foundation versions; Firestore stores
/// microseconds, and a timestamp that does not round-trip breaks `updateTime` preconditions
/// and change detection.
enum FirestoreTimestamp {
    /// Formats `date` with microsecond precision.
    static func string(from date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(fraction, 6) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; digits past microseconds are dropped.
    static func date(from string: String) -> Date? {
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
        guard chars.count >= 20,
            let year = number(0, 4), chars[4] == 0x2D, let month = number(5, 2), chars[7] == 0x2D,
            let day = number(8, 2), chars[10] == 0x54 || chars[10] == 0x74,
            let hour = number(11, 2), chars[13] == 0x3A, let minute = number(14, 2), chars[16] == 0x3A,
            let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
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
            for _ in digits..<max(digits, 6) { micros *= 10 }
        }
        guard index < chars.count else { return nil }
        var offset: Int64 = 0
        if chars[index] == 0x5A || chars[index] == 0x7A {
            index += 1
        } else if chars[index] == 0x2B || chars[index] == 0x2D, let oh = number(index + 1, 2), chars.count > index + 3,
            chars[index + 3] == 0x3A, let om = number(index + 4, 2)
        {
            offset = (oh * 3600 + om * 60) * (chars[index] == 0x2B ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == chars.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds * 1_000_000 + micros) / 1_000_000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Howard Hinnant's `days_from_civil`: days since 1970-01-01 in the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
