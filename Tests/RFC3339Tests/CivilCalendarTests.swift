import Foundation
import RFC3339
import Testing

@Suite("CivilCalendar")
struct CivilCalendarTests {
    @Test("known days: the epoch, a leap day, the day before the epoch, a far year")
    func knownDays() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 2, day: 29) == 11_016)
        #expect(CivilCalendar.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.date(fromDays: 11_016) == (2000, 2, 29))
        #expect(CivilCalendar.date(fromDays: -1) == (1969, 12, 31))
        #expect(CivilCalendar.days(year: 9999, month: 12, day: 31) == 2_932_896)
    }

    @Test("days and dates are inverse over four centuries around the epoch, and agree with Foundation")
    func roundTrip() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        for days in stride(from: Int64(-73_000), through: 73_000, by: 97) {
            let (year, month, day) = CivilCalendar.date(fromDays: days)
            #expect(CivilCalendar.days(year: year, month: month, day: day) == days)
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            #expect(parts.year == Int(year) && parts.month == Int(month) && parts.day == Int(day))
        }
    }
}
