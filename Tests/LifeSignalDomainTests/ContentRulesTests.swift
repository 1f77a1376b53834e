import Foundation
import LifeSignalDomain
import Testing

@Suite("Content rules (seed 004)")
struct ContentRulesTests {
    @Test("slugs: lowercase ASCII words joined by single hyphens, accents folded")
    func slugs() throws {
        #expect(try ContentRules.slugify("Café du Nord!") == "cafe-du-nord")
        #expect(try ContentRules.slugify("  Two   Spaces -- and_Underscores ") == "two-spaces-and-underscores")
        #expect(try ContentRules.slugify("Zinfandel 2027") == "zinfandel-2027")
        #expect(try ContentRules.slugify("ÅNGSTRÖM Über") == "angstrom-uber")
        #expect(try ContentRules.slug("  ", name: "From Name") == "from-name")
        #expect(try ContentRules.slug("Given Slug", name: "From Name") == "given-slug")
        #expect(throws: DomainError.invalidArgument("\"!?\" has no letters or digits to make a slug from; give a slug")) {
            try ContentRules.slugify("!?")
        }
    }

    @Test("web addresses: https added to bare hosts, other schemes refused, blank is nil")
    func urls() throws {
        #expect(try ContentRules.normalizeURL("example.com/a?b=c") == "https://example.com/a?b=c")
        #expect(try ContentRules.normalizeURL(" HTTP://Example.com ") == "http://Example.com")
        #expect(try ContentRules.normalizeURL("https://x.example") == "https://x.example")
        #expect(try ContentRules.normalizeURL("   ") == nil)
        #expect(try ContentRules.normalizeURL(nil) == nil)
        #expect(throws: DomainError.invalidArgument("\"mailto://a@b\" is not a web address (http or https)")) {
            try ContentRules.normalizeURL("mailto://a@b")
        }
        #expect(throws: DomainError.invalidArgument("\"not a url\" is not a web address")) { try ContentRules.normalizeURL("not a url") }
    }

    @Test("search terms: blank after trimming means no search; LIKE wildcards escaped")
    func search() {
        #expect(ContentRules.searchTerm("  ") == nil)
        #expect(ContentRules.searchTerm(nil) == nil)
        #expect(ContentRules.searchTerm(" wine ") == "wine")
        #expect(ContentRules.likePattern("50%_\\x") == "%50\\%\\_\\\\x%")
        #expect(ContentRules.nameMatches("Fiddletown CELLARS", term: "cellars"))
        #expect(!ContentRules.nameMatches("Fiddletown", term: "cellar"))
        #expect(ContentRules.nameMatches("anything", term: " "))
    }

    @Test("days: YYYY-MM-DD only, real days only, ordered by calendar")
    func days() throws {
        #expect(try CalendarDay("2028-02-29").description == "2028-02-29")
        #expect(try CalendarDay(year: 7, month: 3, day: 1).description == "0007-03-01")
        for bad in ["2027-02-29", "2027-13-01", "2027-1-01", "20270101", "2027-04-31", ""] {
            #expect(throws: DomainError.invalidArgument("\"\(bad)\" is not a day in YYYY-MM-DD form")) { try CalendarDay(bad) }
        }
        #expect(try CalendarDay("2026-12-31") < CalendarDay("2027-01-01"))
        #expect(CalendarDay(Date(timeIntervalSince1970: 86_400 * 365)).description == "1971-01-01")
        let encoded = try JSONEncoder().encode([try CalendarDay("2027-05-06")])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"2027-05-06\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDay].self, from: Data("[\"2027-5-6\"]".utf8)) }
    }

    @Test("times of day: HH:MM gains seconds; out of range refused")
    func times() throws {
        #expect(try ContentRules.timeOfDay("09:30") == .text("09:30:00"))
        #expect(try ContentRules.timeOfDay("23:59:59") == .text("23:59:59"))
        #expect(try ContentRules.timeOfDay(" ") == .null)
        for bad in ["24:00", "9:30", "12:60", "12:00:60", "noon"] {
            #expect(throws: DomainError.invalidArgument("\"\(bad)\" is not a time of day (HH:MM or HH:MM:SS)")) { try ContentRules.timeOfDay(bad) }
        }
    }

    @Test("the event window: from keeps start or end on/after it or undated; to keeps start on/before it")
    func eventWindow() throws {
        let day = { (text: String) in try CalendarDay(text) }
        let from = try day("2027-01-01")
        let to = try day("2027-01-31")
        #expect(ContentRules.eventInWindow(start: try day("2027-01-01"), end: nil, from: from, to: nil))
        #expect(ContentRules.eventInWindow(start: try day("2026-12-01"), end: try day("2027-01-01"), from: from, to: nil))
        #expect(!ContentRules.eventInWindow(start: try day("2026-12-01"), end: try day("2026-12-31"), from: from, to: nil))
        #expect(ContentRules.eventInWindow(start: nil, end: nil, from: from, to: nil))
        #expect(!ContentRules.eventInWindow(start: nil, end: try day("2026-12-01"), from: from, to: nil))
        #expect(!ContentRules.eventInWindow(start: nil, end: nil, from: nil, to: to))
        #expect(ContentRules.eventInWindow(start: try day("2027-01-31"), end: nil, from: from, to: to))
        #expect(!ContentRules.eventInWindow(start: try day("2027-02-01"), end: nil, from: from, to: to))
    }

    @Test("drafts validate and normalise their columns")
    func drafts() throws {
        let columns = try Location.Draft(name: " Place ", websiteURL: "place.example", status: .published, sortOrder: 3).columns()
        #expect(columns["name"] == .text("Place") && columns["slug"] == .text("place"))
        #expect(columns["website_url"] == .text("https://place.example") && columns["region"] == .null)
        #expect(columns["status"] == .text("published") && columns["sort_order"] == .int(3))
        #expect(columns["id"] == nil && columns["created_by"] == nil)
        let event = try Event.Draft(name: "E", keywords: [" a ", "", "b"]).columns()
        #expect(event["keywords"] == .texts(["a", "b"]))
        let stored = try Route.Draft(name: "R", durationMinutes: 5).stored(
            id: UUID(), createdBy: nil, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 1))
        #expect(stored.slug == "r" && stored.durationMinutes == 5 && stored.difficulty == .easy)
        #expect(try stored.draft.columns() == Route.Draft(name: "R", durationMinutes: 5).columns())
    }
}

@Suite("Domain errors on the wire")
struct DomainErrorWireTests {
    @Test("every error rebuilt from its code and message equals the original")
    func roundTrip() {
        let errors: [DomainError] = [
            .notFound("QR code"), .alreadyExists("Contact 42"), .forbidden("No"), .invalidArgument("Bad"),
            .failedPrecondition("Later"), .unauthenticated, .invalidOTP, .otpExpired, .tooManyAttempts,
            .invalidPhone("+1"), .internal("boom"),
        ]
        for error in errors {
            // The wire carries the sentence; a client that sends the bare payload is read too.
            #expect(DomainError(code: error.code, message: error.message) == error, "\(error)")
            let payload: String? =
                switch error {
                case .invalidPhone(let text), .internal(let text): text
                default: nil
                }
            if let payload { #expect(DomainError(code: error.code, message: payload) == error, "\(error) from its payload") }
        }
        #expect(DomainError(code: "not_found", message: "Gone") == .notFound("Gone"))
    }
}
