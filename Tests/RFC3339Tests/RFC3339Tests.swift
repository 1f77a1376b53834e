import Foundation
import RFC3339
import Testing

/// The one timestamp reader's rules, each decided once for every layer.
@Suite("RFC 3339")
struct RFC3339Tests {
    let noon = Date(timeIntervalSince1970: 1_717_588_800)  // 2024-06-05T12:00:00Z

    @Test("every spelling the services write reads as the same instant")
    func spellings() throws {
        for text in [
            "2024-06-05T12:00:00Z", "2024-06-05t12:00:00z", "2024-06-05T12:00:00+00:00", "2024-06-05T14:00:00+02:00",
            "2024-06-05T14:00:00+0200", "2024-06-05T14:00:00+02", "2024-06-05 12:00:00", "2024-06-05 12:00:00+00",
            "2024-06-05T12:00:00.000000+00:00", "2024-06-05T07:30:00-04:30",
        ] {
            #expect(RFC3339.parse(text) == noon, "\(text)")
        }
    }

    @Test("the lenient profile also reads a date alone and a time without seconds; the others do not")
    func lenient() {
        #expect(RFC3339.parse("2024-06-05", .lenient) == Date(timeIntervalSince1970: 1_717_545_600))
        #expect(RFC3339.parse("2024-06-05T12:00", .lenient) == noon)
        #expect(RFC3339.parse("2024-06-05 12:00:00+00", .lenient) == noon)
        #expect(RFC3339.parse("2024-06-05") == nil)
        #expect(RFC3339.parse("2024-06-05T12:00") == nil)
    }

    @Test("the strict profile is RFC 3339's date-time exactly: a zone, seconds, T, ±HH:MM")
    func strict() {
        #expect(RFC3339.parse("2024-06-05T12:00:00Z", .strict) == noon)
        #expect(RFC3339.parse("2024-06-05T14:00:00+02:00", .strict) == noon)
        for text in ["2024-06-05T12:00:00", "2024-06-05 12:00:00Z", "2024-06-05T14:00:00+0200", "2024-06-05", "2024-06-05T12:00Z"] {
            #expect(RFC3339.parse(text, .strict) == nil, "\(text)")
        }
    }

    @Test("a leap second is the first second of the next minute, as PostgreSQL reads it")
    func leapSecond() throws {
        let newYear = try #require(RFC3339.parse("2017-01-01T00:00:00Z"))
        #expect(RFC3339.parse("2016-12-31T23:59:60Z") == newYear)
        #expect(RFC3339.parse("2016-12-31T23:59:60Z", .strict) == newYear)
        #expect(RFC3339.parse("2016-12-31T23:59:60.5Z") == newYear.addingTimeInterval(0.5))
        #expect(RFC3339.parse("2016-12-31T23:59:61Z") == nil)
    }

    @Test("24:00:00 is the next midnight; any other hour past 23 is refused")
    func endOfDay() throws {
        #expect(RFC3339.parse("2024-06-04T24:00:00Z") == RFC3339.parse("2024-06-05T00:00:00Z"))
        #expect(RFC3339.parse("2024-06-04T24:00:01Z") == nil)
        #expect(RFC3339.parse("2024-06-04T24:00:00.1Z") == nil)
        #expect(RFC3339.parse("2024-06-04T25:00:00Z") == nil)
    }

    @Test("fractions keep the microsecond exactly and drop what is finer, never rounding up")
    func fractions() {
        #expect(RFC3339.microseconds("2024-06-05T12:00:00.123456Z") == 1_717_588_800_123_456)
        #expect(RFC3339.microseconds("2024-06-05T12:00:00.1234569Z") == 1_717_588_800_123_456)
        #expect(RFC3339.microseconds("2024-12-31T23:59:59.9999999Z") == RFC3339.microseconds("2024-12-31T23:59:59.999999Z"))
        #expect(RFC3339.microseconds("2024-06-05T12:00:00.5Z") == 1_717_588_800_500_000)
        #expect(RFC3339.parse("2024-06-05T12:00:00.Z") == nil)
    }

    @Test("dates that do not exist, and anything after the zone, are refused")
    func refusals() throws {
        for text in [
            "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-13-05T00:00:00Z", "+999-01-01T00:00:00Z",
            "2024-06-05T12:60:00Z", "2024-06-05T12:00:00Zjunk", "2024-06-05T12:00:00+24:00", "2024-06-05T12:00:00+02:60", "yesterday", "",
            "2024-06-05T12:00:00 Z", "２０２４-06-05T12:00:00Z",
        ] {
            #expect(RFC3339.parse(text) == nil, "\(text)")
        }
        #expect(RFC3339.parse("2024-02-29T00:00:00Z") != nil)
        #expect(RFC3339.parse("2000-02-29T00:00:00Z") != nil)
        #expect(RFC3339.parse("1900-02-29T00:00:00Z") == nil)
        // Year 0000 reads, before anything the formats write: a caller refuses it in its own words.
        let yearZero = try #require(RFC3339.microseconds("0000-01-01T00:00:00Z"))
        #expect(yearZero < RFC3339.representableMicros.lowerBound)
    }

    @Test("the formats: the stored form, GoTrue's and Firestore's Z, supabase-swift's milliseconds")
    func formats() {
        let date = Date(timeIntervalSince1970: 1_717_588_800.123456)
        #expect(RFC3339.format(date) == "2024-06-05T12:00:00.123456+00:00")
        #expect(RFC3339.format(date, zone: .z) == "2024-06-05T12:00:00.123456Z")
        #expect(RFC3339.format(date, fractionDigits: 3, zone: .z) == "2024-06-05T12:00:00.123Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_717_588_800.9999), fractionDigits: 3, zone: .z) == "2024-06-05T12:00:00.999Z")
        #expect(RFC3339.format(date, fractionDigits: 0, zone: .z) == "2024-06-05T12:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.5), zone: .z) == "1969-12-31T23:59:59.500000Z")
    }

    @Test("instants past the four-digit years are written as the nearest end, never trapping")
    func clamped() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1e15)) == "9999-12-31T23:59:59.999999+00:00")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1e15)) == "0001-01-01T00:00:00.000000+00:00")
        #expect(RFC3339.format(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.999999+00:00")
        #expect(RFC3339.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000000+00:00")
    }

    @Test(
        "what is written reads back to the microsecond, across the whole range",
        arguments: [-62_135_596_800.0, -1.000001, 0, 951_782_400.5, 1_717_588_800.123456, 253_402_300_799.999999])
    func roundTrip(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let micros = RFC3339.clampedMicroseconds(date)
        #expect(RFC3339.microseconds(RFC3339.format(date)) == micros)
        #expect(RFC3339.microseconds(RFC3339.format(date, zone: .z), .strict) == micros)
    }
}
