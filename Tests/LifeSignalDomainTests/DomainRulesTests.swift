import Foundation
import LifeSignalDomain
import Testing

@Suite("Domain rules")
struct DomainRulesTests {
    @Test("E.164 phone numbers: separators dropped, 7 to 15 digits, no leading zero")
    func phones() throws {
        #expect(try PhoneNumber("+1 (555) 000-1111").e164 == "+15550001111")
        #expect(try PhoneNumber("+15550001111").digits == "15550001111")
        #expect(try PhoneNumber("+4420794600").e164.count == 11)
        for bad in ["15550001111", "+", "+123456", "+1234567890123456", "+05550001111", "+1555000111a", "++15550001111"] {
            #expect(throws: DomainError.invalidPhone(bad)) { try PhoneNumber(bad) }
        }
    }

    @Test("one-time codes are exactly six digits; random ones keep leading zeros")
    func codes() throws {
        #expect(try OneTimeCode(" 012345 ").value == "012345")
        for bad in ["12345", "1234567", "12345a", "١٢٣٤٥٦"] {
            #expect(throws: DomainError.invalidOTP) { try OneTimeCode(bad) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 { #expect(OneTimeCode.random(using: &generator).value.count == 6) }
    }

    @Test("the interval is 1 hour to 7 days, 24 hours by default")
    func intervals() throws {
        #expect(CheckInInterval.default.seconds == 86400)
        #expect(try CheckInInterval.hours(1).seconds == 3600)
        #expect(try CheckInInterval.hours(168).seconds == 604800)
        for bad in [0.0, 3599, 604801, -3600, .infinity, .nan] {
            #expect(throws: DomainError.self) { try CheckInInterval(seconds: bad) }
        }
        #expect(try ReminderLead(seconds: 1800) == .thirtyMinutes)
        #expect(try ReminderLead(seconds: nil) == ReminderLead.none)
        #expect(throws: DomainError.self) { try ReminderLead(seconds: 600) }
        #expect(ReminderLead.default == .thirtyMinutes)
    }

    @Test("colour bands: green above 50 %, yellow above 20 %, orange above zero, red after the deadline")
    func bands() throws {
        let start = Date(timeIntervalSince1970: 0)
        let status = CheckInStatus(lastCheckIn: start, interval: try .hours(10))
        let expectations: [(Double, ColorBand)] = [
            (0, .green), (4.99, .green), (5, .yellow), (7.99, .yellow), (8, .orange), (9.99, .orange), (10, .red), (30, .red),
        ]
        for (hours, band) in expectations {
            #expect(status.band(at: start.addingTimeInterval(hours * 3600)) == band, "\(hours) h")
        }
        #expect(status.deadline == start.addingTimeInterval(36000))
        #expect(status.isExpired(at: start.addingTimeInterval(36000)))
        #expect(CheckInStatus(lastCheckIn: nil, interval: .default).band(at: start) == .red)
        #expect(CheckInStatus(lastCheckIn: nil, interval: .default).deadline == nil)
    }

    @Test("a check-in within five minutes of the last is too soon, with the wait")
    func cooldown() throws {
        let last = Date(timeIntervalSince1970: 1000)
        #expect(throws: DomainError.checkInTooSoon(retryAfter: 200)) { try CheckInRules.validateCheckIn(at: last.addingTimeInterval(100), last: last) }
        try CheckInRules.validateCheckIn(at: last.addingTimeInterval(300), last: last)
        try CheckInRules.validateCheckIn(at: last, last: nil)
    }

    @Test("errors keep their codes across the wire")
    func errorCodes() {
        let errors: [DomainError] = [
            .invalidPhone("x"), .invalidOTP, .otpExpired, .tooManyAttempts, .checkInTooSoon(retryAfter: 12),
            .unauthenticated, .forbidden("f"), .notFound("n"), .invalidArgument("a"), .alreadyExists("e"),
        ]
        for error in errors {
            let rebuilt = DomainError(code: error.code, message: error.message, retryAfter: error.retryAfter)
            #expect(rebuilt.code == error.code)
        }
        #expect(DomainError(code: "check_in_too_soon", message: "", retryAfter: 12) == .checkInTooSoon(retryAfter: 12))
        #expect(DomainError(code: "from_the_future", message: "?").code == "internal")
    }
}

@Suite("Phone regions")
struct PhoneRegionTests {
    @Test("national numbers become E.164; trunk prefixes and typed country codes are dropped; counts are checked")
    func nationalNumbers() throws {
        let us = PhoneRegion.unitedStates
        #expect(try us.number(from: "(555) 010-0001").e164 == "+15550100001")
        #expect(try us.number(from: "1 555 010 0001").e164 == "+15550100001")
        #expect(try us.number(from: "+44 7700 900123").e164 == "+447700900123")
        #expect(throws: DomainError.invalidPhone("555-0001")) { try us.number(from: "555-0001") }
        #expect(throws: DomainError.invalidPhone("555-abc-0001")) { try us.number(from: "555-abc-0001") }
        let uk = try #require(PhoneRegion.named("GB"))
        #expect(try uk.number(from: "07700 900123").e164 == "+447700900123")
        #expect(try uk.number(from: "7700 900123").e164 == "+447700900123")
        #expect(throws: DomainError.self) { try uk.number(from: "07700 9001") }
        let germany = try #require(PhoneRegion.named("de"))
        #expect(germany.expectedDigits == "10 to 11 digits" && us.expectedDigits == "10 digits")
        #expect(PhoneRegion.named("ZZ") == nil)
    }
}
