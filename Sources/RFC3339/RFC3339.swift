import Foundation

/// The one reader and writer of instants as text, for every layer: the database's stored form,
/// PostgREST's and GoTrue's JSON, Firestore's REST values, the command line.
///
/// Written by hand on bytes: `ISO8601DateFormatter` keeps only milliseconds, needs a different
/// option set per spelling, has varied across Foundation versions, and is slow enough to show
/// when every row of a page carries two timestamps.
///
/// The rules, decided once (`RFC3339Tests`):
/// - **Leap seconds.** `:60` is read as the first second of the next minute, as PostgreSQL
///   reads it (`'2016-12-31T23:59:60Z'` is `2017-01-01T00:00:00Z`): a clock that writes a leap
///   second is not wrong, and no instant in this system needs the leap second itself.
/// - **End of day.** `24:00:00` (with nothing after the seconds but zeros) is the next day's
///   midnight, as ISO 8601 and PostgreSQL have it; any other hour past 23 is refused.
/// - **Fractions.** Any number of digits; digits past the microsecond are dropped, never
///   rounded, so a text never reads as a later second, day or year than it says.
/// - **Years** are four digits, as RFC 3339 has them; 0000 reads (as 1 BC, proleptically), so
///   a caller with a narrower range (documents: years 1 to 9999) can refuse it in its own words.
///   Formatting writes years 1 to 9999 only.
public enum RFC3339 {
    /// What a text may leave out or spell otherwise.
    public struct Profile: Sendable, Hashable {
        /// A text without a zone is UTC (PostgreSQL's `timestamp` without time zone; Supabase
        /// runs in UTC); otherwise a zone is required.
        public var zoneOptional: Bool
        /// A date alone (`2024-06-05`) is its midnight UTC, and seconds may be left out
        /// (`12:30`), as PostgreSQL accepts.
        public var partsOptional: Bool
        /// A space (PostgreSQL's output) may separate the date and the time, and an offset may
        /// be `±HH` or `±HHMM` as well as `±HH:MM`.
        public var postgresSpellings: Bool

        /// RFC 3339's `date-time` exactly (`T` or `t`, a zone, `±HH:MM`): Firestore's values.
        public static let strict = Profile(zoneOptional: false, partsOptional: false, postgresSpellings: false)
        /// A full date and time as PostgreSQL writes it and PostgREST and GoTrue send it: the
        /// backend's own texts, and what it accepts for a timestamp.
        public static let postgres = Profile(zoneOptional: true, partsOptional: false, postgresSpellings: true)
        /// ``postgres`` and also a date alone or a time without seconds: what a client decodes
        /// into a `Date` from any column PostgREST returns (a `date` column included).
        public static let lenient = Profile(zoneOptional: true, partsOptional: true, postgresSpellings: true)
    }

    /// The instant `text` names, or `nil` when it is not one under `profile`.
    public static func parse(_ text: String, _ profile: Profile = .postgres) -> Date? {
        microseconds(text, profile).map { Date(timeIntervalSince1970: Double($0) / 1_000_000) }
    }

    /// Microseconds since 1970 of the instant `text` names (exact, unlike a `Date`).
    public static func microseconds(_ text: String, _ profile: Profile = .postgres) -> Int64? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.instant(profile)
        }
    }

    /// The earliest and latest microseconds the four-digit form can write:
    /// 0001-01-01T00:00:00 to 9999-12-31T23:59:59.999999.
    public static let representableMicros: ClosedRange<Int64> =
        CivilCalendar.days(year: 1, month: 1, day: 1) * 86_400_000_000...CivilCalendar.days(year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1

    /// The zone a formatted text ends with.
    public enum Zone: Sendable {
        /// `Z` (GoTrue, Firestore, supabase-swift).
        case z
        /// `+00:00` (PostgreSQL, the stored form).
        case offset
    }

    /// `date` in UTC with exactly `fractionDigits` digits (0, 3 or 6; fewer digits are cut, not
    /// rounded). An instant outside ``representableMicros`` (PostgreSQL stores years up to
    /// 294276, years BC and `±infinity`, which anyone may write into a content row) is written
    /// as the nearest end of that range, never trapping.
    public static func format(_ date: Date, fractionDigits: Int = 6, zone: Zone = .offset) -> String {
        format(microseconds: clampedMicroseconds(date), fractionDigits: fractionDigits, zone: zone)
    }

    /// ``format(_:fractionDigits:zone:)`` of a count of microseconds already in range.
    public static func format(microseconds: Int64, fractionDigits: Int = 6, zone: Zone = .offset) -> String {
        let micros = min(max(microseconds, representableMicros.lowerBound), representableMicros.upperBound)
        var seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        seconds -= days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        // Digits written by hand: `String(format:)` goes through NSString on Linux.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<max(width, 1) { divisor *= 10 }
            var rest = abs(value)
            while divisor > 0 {
                bytes.append(UInt8(48 + (rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(seconds / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits((seconds % 3600) / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds % 60, 2)
        let shown = min(max(fractionDigits, 0), 6)
        if shown > 0 {
            bytes.append(UInt8(ascii: "."))
            var cut = fraction
            for _ in shown..<6 { cut /= 10 }
            digits(cut, shown)
        }
        switch zone {
        case .z: bytes.append(UInt8(ascii: "Z"))
        case .offset: bytes.append(contentsOf: "+00:00".utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `date`'s microseconds since 1970, rounded, within ``representableMicros`` (NaN is 1970).
    public static func clampedMicroseconds(_ date: Date) -> Int64 {
        let total = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let bounds = representableMicros
        if total.isNaN { return 0 }
        if total <= Double(bounds.lowerBound) { return bounds.lowerBound }
        if total >= Double(bounds.upperBound) { return bounds.upperBound }
        return Int64(total)
    }
}

/// Reads one instant from UTF-8 bytes.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index >= bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(_ count: Int) -> Int64? {
        guard index + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        index += count
        return value
    }

    mutating func instant(_ profile: RFC3339.Profile) -> Int64? {
        guard let year = number(4), take(45), let month = number(2), take(45), let day = number(2),
            (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let midnight = CivilCalendar.days(year: year, month: month, day: day) * 86_400_000_000
        if atEnd { return profile.partsOptional ? midnight : nil }
        guard take(84) || take(116) || (profile.postgresSpellings && take(32)) else { return nil }
        guard let hour = number(2), take(58), let minute = number(2), minute < 60 else { return nil }
        var second: Int64 = 0
        var micros: Int64 = 0
        if take(58) {
            guard let value = number(2), value <= 60 else { return nil }
            second = value
            if take(46) || (profile.postgresSpellings && take(44)) {
                var digits = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    if digits < 6 { micros = micros * 10 + Int64(bytes[index] - 48) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 6)..<6 { micros *= 10 }
            }
        } else if !profile.partsOptional {
            return nil
        }
        guard hour < 24 || (hour == 24 && minute == 0 && second == 0 && micros == 0) else { return nil }
        guard let offset = zone(profile) else { return nil }
        guard atEnd else { return nil }
        return midnight + ((hour * 60 + minute) * 60 + second - offset) * 1_000_000 + micros
    }

    /// The zone's offset east of UTC in seconds; `nil` when malformed or missing but required.
    mutating func zone(_ profile: RFC3339.Profile) -> Int64? {
        if atEnd { return profile.zoneOptional ? 0 : nil }
        if take(90) || take(122) { return 0 }
        let sign: Int64
        if take(43) { sign = 1 } else if take(45) { sign = -1 } else { return nil }
        guard let hours = number(2), hours < 24 else { return nil }
        var minutes: Int64 = 0
        if take(58) {
            guard let value = number(2) else { return nil }
            minutes = value
        } else if profile.postgresSpellings {
            if !atEnd {
                guard let value = number(2) else { return nil }
                minutes = value
            }
        } else {
            return nil
        }
        guard minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
