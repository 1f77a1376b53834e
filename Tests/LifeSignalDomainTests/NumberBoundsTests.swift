import Foundation
import LifeSignalDomain
import Testing

/// The domain's validators of numbers a client sends: each extreme is refused with a message,
/// none traps, and the ends of each range are still accepted.
@Suite("Numbers in requests: the domain's bounds")
struct NumberBoundsTests {
    @Test("days: years 1…9999 of ASCII digits; signs, year 0, five digits and other digits refused")
    func days() throws {
        #expect(try CalendarDay("0001-01-01").description == "0001-01-01")
        #expect(try CalendarDay("9999-12-31").description == "9999-12-31")
        #expect(try CalendarDay("2024-02-29").description == "2024-02-29")
        for bad in [
            "0000-01-01", "+999-01-01", "2026-+1-01", "2026-01-+1", "2026--1-01", "-001-01-01", "99999-01-01",
            "9223372036854775807-01-01", "２０２６-01-01", "2026-0١-01", "2026-01-01 ", "",
        ] {
            #expect(throws: DomainError.invalidArgument("\"\(bad)\" is not a day in YYYY-MM-DD form")) { try CalendarDay(bad) }
        }
        #expect(throws: DomainError.self) { try CalendarDay(year: Int.max, month: 1, day: 1) }
        #expect(throws: DomainError.self) { try CalendarDay(year: Int.min, month: 1, day: 1) }
        #expect(throws: DomainError.self) { try CalendarDay(year: 2026, month: Int.max, day: Int.min) }
        #expect(throws: DomainError.self) { try CalendarDay(year: 0, month: 1, day: 1) }
    }

    @Test("times of day: two ASCII digits a part, no signs")
    func times() throws {
        #expect(try ContentRules.timeOfDay("00:00") == .text("00:00:00"))
        #expect(try ContentRules.timeOfDay("23:59:59") == .text("23:59:59"))
        for bad in ["+1:+1", "-1:30", "12:-5", "+9:00:00", "1:30", "１２:00", "99999999999999999999:00"] {
            #expect(throws: DomainError.invalidArgument("\"\(bad)\" is not a time of day (HH:MM or HH:MM:SS)")) { try ContentRules.timeOfDay(bad) }
        }
    }

    @Test("check-in intervals from any Double: refused by field name with the range, ends accepted")
    func intervals() throws {
        #expect(try CheckInInterval.seconds(3600, field: "checkInInterval").seconds == 3600)
        #expect(try CheckInInterval.seconds(604_800, field: "checkInInterval").seconds == 604_800)
        for bad in [1e300, -1e300, .infinity, -.infinity, .nan, -0.0, 1.5, 3599.999, 604_800.001, Double(Int64.max), Double(Int64.min)] {
            do {
                _ = try CheckInInterval.seconds(bad, field: "checkInInterval")
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.code == "invalid_argument")
                #expect(error.message.hasPrefix("checkInInterval must be between 1 hour and 7 days (3600 to 604800 seconds), not "), "\(error.message)")
            }
        }
    }

    @Test("content numbers: sort order within Int32, route duration 0…Int32.max")
    func contentNumbers() throws {
        #expect(try ContentRules.sortOrder(Int(Int32.min)) == .int(Int(Int32.min)))
        #expect(try ContentRules.sortOrder(Int(Int32.max)) == .int(Int(Int32.max)))
        for bad in [Int.max, Int.min, Int(Int32.max) + 1, Int(Int32.min) - 1] {
            #expect(throws: DomainError.self) { try ContentRules.sortOrder(bad) }
        }
        for bad in [Int.max, Int.min, -1, Int(Int32.max) + 1] {
            #expect(throws: DomainError.invalidArgument("A route's duration is 0 minutes or more, not \(bad)")) {
                try Route.Draft(name: "R", durationMinutes: bad).columns()
            }
        }
        #expect(try Route.Draft(name: "R", durationMinutes: Int(Int32.max)).columns()["duration_minutes"] == .int(Int(Int32.max)))
    }

    @Test("document field paths: at most 20 segments, checked before anything walks them")
    func fieldPathDepth() throws {
        let twenty = Array(repeating: "a", count: 20)
        #expect(try DocumentFieldPath(dotted: twenty.joined(separator: ".")).segments.count == 20)
        #expect(throws: DomainError.invalidArgument("A field path has at most 20 segments (maps nest at most that deep), not 21")) {
            try DocumentFieldPath(segments: twenty + ["b"])
        }
        let deep = Array(repeating: "a", count: 300_000).joined(separator: ".")
        #expect(throws: DomainError.self) { try DocumentFieldPath(dotted: deep) }
        #expect(throws: DomainError.self) { try DocumentRules.updating([:], with: [deep: 1]) }
        let query = DocumentQuery(try CollectionPath("users/u/notes"), filters: [.init(field: deep, op: .equal, value: 1)])
        #expect(throws: DomainError.self) { try query.validate() }
        // Evaluating without validating (as a listener may) finds nothing instead of walking it.
        #expect(query.evaluate([DocumentSnapshot(path: try DocumentPath("users/u/notes/a"), data: ["a": 1])]).isEmpty)
    }

    @Test("overlapping update paths are found per path: 20,000 fields, overlap named, no pairs walked")
    func overlaps() throws {
        var fields: [String: DocumentValue] = [:]
        for index in 0..<20_000 { fields["f\(index)"] = .integer(Int64(index)) }
        #expect(try DocumentRules.updating([:], with: fields).count == 20_000)
        fields["f7.x.y"] = 1
        #expect(throws: DomainError.invalidArgument("The field paths f7 and f7.x.y overlap")) { try DocumentRules.updating([:], with: fields) }
        #expect(try DocumentRules.updating(["a": ["b": 1]], with: ["a.c": 2, "a.d.e": 3]) == ["a": ["b": 1, "c": 2, "d": ["e": 3]]])
        #expect(throws: DomainError.invalidArgument("The field paths a.d and a.d.e overlap")) {
            try DocumentRules.updating([:], with: ["a.d.e": 3, "a.d": 2])
        }
    }

    @Test("document values: integers past Int64 and timestamps outside years 1…9999 are refused")
    func documentValues() throws {
        let decoder = JSONDecoder()
        for bad in [
            #"{"integer":"9223372036854775808"}"#, #"{"integer":"-9223372036854775809"}"#, #"{"integer":"1e300"}"#,
            #"{"integer":"1.5"}"#, #"{"timestamp":"99999-01-01T00:00:00Z"}"#, #"{"timestamp":"+999-01-01T00:00:00Z"}"#,
        ] {
            #expect(throws: DecodingError.self) { try decoder.decode(DocumentValue.self, from: Data(bad.utf8)) }
        }
        #expect(try decoder.decode(DocumentValue.self, from: Data(#"{"integer":"9223372036854775807"}"#.utf8)) == .integer(.max))
        let yearZero = try decoder.decode(DocumentValue.self, from: Data(#"{"timestamp":"0000-01-01T00:00:00Z"}"#.utf8))
        #expect(throws: DomainError.invalidArgument("The field t holds a timestamp outside years 1 to 9999")) {
            try DocumentRules.validate(["t": yearZero], at: try DocumentPath("users/u/notes/a"))
        }
        // Far instants format without trapping (they are refused before they are stored).
        #expect(!DocumentTimestamp.string(from: Date(timeIntervalSince1970: 1e300)).isEmpty)
        #expect(!DocumentTimestamp.string(from: Date(timeIntervalSince1970: -.infinity)).isEmpty)
    }
}
