import Foundation

/// ISO 8601 / RFC 3339 parsing and formatting shared by every service.
///
/// The services disagree on timestamp spelling: PostgREST emits `2024-06-05T12:00:00+00:00`
/// (fractional seconds only when non-zero, numeric offset), GoTrue emits
/// `2024-06-01T10:00:00.123456Z` (microseconds, `Z`). A hand-written parser accepts all of
/// them identically on every platform, whereas `ISO8601DateFormatter` needs a different
/// option set per spelling and has varied across Foundation versions.
enum ISO8601 {
    /// Parses `YYYY-MM-DD`, optionally followed by `T`/space, `HH:MM[:SS[.fraction]]` and an
    /// offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`). A missing offset means UTC (Postgres
    /// `timestamp` without time zone; Supabase runs in UTC).
    static func parse(_ string: String) -> Date? {
        var scanner = ByteScanner(Array(string.utf8))
        guard
            let year = scanner.number(digits: 4), scanner.consume(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.consume(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }

        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offsetSeconds = 0
        if !scanner.isAtEnd {
            guard
                scanner.consume(UInt8(ascii: "T")) || scanner.consume(UInt8(ascii: "t"))
                    || scanner.consume(UInt8(ascii: " "))
            else { return nil }
            guard let h = scanner.number(digits: 2), scanner.consume(UInt8(ascii: ":")),
                let m = scanner.number(digits: 2)
            else { return nil }
            hour = h
            minute = m
            if scanner.consume(UInt8(ascii: ":")) {
                guard let s = scanner.number(digits: 2) else { return nil }
                second = s
                if scanner.consume(UInt8(ascii: ".")) || scanner.consume(UInt8(ascii: ",")) {
                    guard let digits = scanner.digitRun(), !digits.isEmpty else { return nil }
                    fraction = Double("0." + digits) ?? 0
                }
            }
            guard hour <= 24, minute <= 59, second <= 60 else { return nil }
            if scanner.consume(UInt8(ascii: "Z")) || scanner.consume(UInt8(ascii: "z")) {
                offsetSeconds = 0
            } else if let sign = scanner.sign() {
                guard let oh = scanner.number(digits: 2) else { return nil }
                var om = 0
                if scanner.consume(UInt8(ascii: ":")) {
                    guard let value = scanner.number(digits: 2) else { return nil }
                    om = value
                } else if let value = scanner.number(digits: 2) {
                    om = value
                }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            }
            guard scanner.isAtEnd else { return nil }
        }

        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let base = calendar.date(from: components) else { return nil }
        return base.addingTimeInterval(fraction - TimeInterval(offsetSeconds))
    }

    /// Formats `date` as `2024-06-05T12:00:00.000Z` (UTC, milliseconds), the form
    /// supabase-swift sends for `Date` values in bodies and filters.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

private struct ByteScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += digits
        return value
    }

    mutating func digitRun() -> String? {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func sign() -> Int? {
        if consume(UInt8(ascii: "+")) { return 1 }
        if consume(UInt8(ascii: "-")) { return -1 }
        return nil
    }
}
