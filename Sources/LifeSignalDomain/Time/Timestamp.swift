import Foundation

/// The one text form of an instant in SQLite and on the wire:
/// `2024-06-05T12:00:00.123456+00:00`, always UTC with six fractional digits.
///
/// A fixed width makes text comparison agree with time order, so SQLite can index and compare
/// timestamps stored as text. Microseconds are what PostgreSQL keeps, so a value survives a
/// round trip through either engine unchanged.
public enum Timestamp {
    /// The instants the form can write and ``parse(_:)`` reads back, in microseconds since
    /// 1970: four-digit years, 0001-01-01T00:00:00 to 9999-12-31T23:59:59.999999.
    static let representableMicros: ClosedRange<Int64> =
        CivilCalendar.days(year: 1, month: 1, day: 1) * 86_400_000_000...CivilCalendar.days(year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1

    /// An instant outside ``representableMicros`` is written as the nearest end of that range.
    /// Such instants do reach here: PostgreSQL stores years up to 294276, years BC and
    /// `±infinity`, which anyone may write into a content row through `/rest/v1`, and
    /// `Int64(_:)` of their microseconds would trap.
    public static func format(_ date: Date) -> String {
        let totalMicros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let bounds = representableMicros
        let micros =
            totalMicros.isNaN
            ? 0
            : totalMicros <= Double(bounds.lowerBound)
                ? bounds.lowerBound
                : totalMicros >= Double(bounds.upperBound)
                    ? bounds.upperBound
                    : Int64(totalMicros)
        var seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        seconds -= days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        // Digits written by hand: `String(format:)` goes through NSString on Linux and is
        // slow enough to show when every row of a page carries two timestamps.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = abs(value)
            while divisor > 0 {
                bytes.append(UInt8(48 + (rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
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
        bytes.append(UInt8(ascii: "."))
        digits(fraction, 6)
        bytes.append(contentsOf: "+00:00".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``postgresText(_:)`` of a stored value, without a round trip through `Date` when the
    /// text is already in the stored form (`…SS.ffffff+00:00`).
    public static func postgresText(stored text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let end = bytes.withUnsafeBufferPointer(storedFractionEnd) else { return parse(text).map(postgresText) }
        return String(decoding: bytes[0..<end] + bytes[26...], as: UTF8.self)
    }

    /// For text in the stored form (`…SS.ffffff+00:00`, 32 bytes), where its PostgreSQL form
    /// cuts it: that form is bytes `0..<end` then `26...` (the fraction's trailing zeros, and a
    /// dot left alone, dropped). `nil` for text in any other form. A renderer writes the two
    /// pieces as they are, without building a string per value.
    public static func storedFractionEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 32, bytes[19] == UInt8(ascii: "."), bytes[10] == UInt8(ascii: "T"),
            bytes[26] == UInt8(ascii: "+"), bytes[27] == UInt8(ascii: "0"), bytes[28] == UInt8(ascii: "0"),
            bytes[29] == UInt8(ascii: ":"), bytes[30] == UInt8(ascii: "0"), bytes[31] == UInt8(ascii: "0")
        else { return nil }
        var end = 26
        while end > 20, bytes[end - 1] == UInt8(ascii: "0") { end -= 1 }
        return end == 20 ? 19 : end
    }

    /// PostgreSQL's JSON text for a `timestamptz` in UTC: fractional digits only when non-zero,
    /// trailing zeros dropped (`2024-06-05T12:00:00+00:00`, `…12:00:00.5+00:00`).
    public static func postgresText(_ date: Date) -> String {
        let full = format(date)
        let dot = full.index(full.startIndex, offsetBy: 19)
        let zone = full.index(full.endIndex, offsetBy: -6)
        var fraction = full[dot..<zone]
        while fraction.last == "0" { fraction = fraction.dropLast() }
        if fraction == "." { fraction = "" }
        return String(full[..<dot]) + fraction + String(full[zone...])
    }

    /// Parses RFC 3339 / ISO 8601 instants with `Z` or a numeric offset, with or without
    /// fractional seconds (up to nanoseconds), and PostgreSQL's space-separated form.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int64(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45,
            let day = number(8..<10), bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
            let hour = number(11..<13), bytes[13] == 58, let minute = number(14..<16), bytes[16] == 58,
            let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset: Int64 = 0
        if index < bytes.count {
            switch bytes[index] {
            case 90, 122: index += 1
            case 43, 45:
                let sign: Int64 = bytes[index] == 45 ? -1 : 1
                guard let hours = number(index + 1..<index + 3) else { return nil }
                var minutes: Int64 = 0
                var next = index + 3
                if next < bytes.count, bytes[next] == 58 { next += 1 }
                if next < bytes.count {
                    guard let parsed = number(next..<next + 2) else { return nil }
                    minutes = parsed
                    next += 2
                }
                offset = sign * (hours * 3600 + minutes * 60)
                index = next
            default: return nil
            }
        } else {
            // No zone: PostgreSQL's `timestamp` without time zone, taken as UTC.
        }
        guard index == bytes.count else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
