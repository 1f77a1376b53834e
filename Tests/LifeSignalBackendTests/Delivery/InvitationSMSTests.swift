import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A backend whose SMS sender records and whose invitation links are real signed `/i/` links,
/// so a test can read the text an invitee gets and check its token.
struct InvitationSMSFixture {
    let test: TestBackend
    let sms: RecordingChannelSender
    let links: ResponderLinks

    static let base = URL(string: "https://ls.test") ?? URL(fileURLWithPath: "/")

    static func make(
        _ engine: Engine, smsChannel: Bool = true, withLinks: Bool = true,
        limits: InvitationLimits = InvitationLimits()
    ) async throws -> InvitationSMSFixture {
        let sms = RecordingChannelSender()
        var links: ResponderLinks?
        let test = try await TestDatabases.backend(engine) { configuration in
            if smsChannel { configuration.deliveryChannels = DeliveryChannels(sms: sms) }
            configuration.invitationLimits = limits
            let made = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: base)
            links = made
            let clock = configuration.clock
            if withLinks { configuration.invitationLink = { made.invitationURL(invitationID: $0, now: clock.now()) } }
        }
        return InvitationSMSFixture(test: test, sms: sms, links: try #require(links))
    }

    var backend: LifeSignalBackend { test.backend }

    func rows(_ condition: String = "1 = 1") async throws -> [SQLRow] {
        try await backend.database.query(SQL.raw("SELECT * FROM deliveries WHERE \(condition) ORDER BY created_at, address"))
    }

    func invite(_ caller: Caller, _ phone: String, _ roles: ContactRoles = .responder) async throws -> InvitationSummary {
        try await backend.contacts.invite(caller: caller, phone: phone, roles: roles)
    }
}

@Suite("Invitation SMS")
struct InvitationSMSTests {
    static let stranger = "+15550009001"

    @Test("an allowance of no invitations refuses the first one and writes nothing")
    func noAllowance() async throws {
        let fixture = try await InvitationSMSFixture.make(.sqlite, limits: InvitationLimits(invitationsPerInviterPerDay: 0))
        let ann = try await fixture.test.person("+15550000001", "Ann")
        await #expect(throws: DomainError.rateLimited(retryAfter: InvitationLimits.window)) {
            _ = try await fixture.invite(ann, Self.stranger)
        }
        #expect(try await fixture.test.count("contact_invitations") == 0)
        #expect(try await fixture.rows().isEmpty)
    }

    @Test("a number with no account gets one SMS: the inviter's first name, the role and an /i/ link to that invitation", arguments: Engine.allCases)
    func strangerGetsSMS(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let invitation = try await fixture.invite(ann, Self.stranger)

        let rows = try await fixture.rows()
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(try row.string("channel") == "sms" && (try row.string("address")) == Self.stranger)
        #expect(row.optionalUUID("user_id") == nil)
        #expect(try row.uuid("notification_id") == invitation.id)
        #expect(try row.string("kind") == "invitation" && (try row.string("status")) == "sent" && (try row.int("attempts")) == 1)
        #expect(row.optionalString("provider_message_id")?.hasPrefix("rec-") == true)
        #expect(try !row.string("body").contains("/i/"), "the link is made when sent, not kept in the ledger")

        let texts = await fixture.sms.messages(to: Self.stranger)
        #expect(texts.count == 1)
        let text = try #require(texts.first?.text)
        #expect(text.hasPrefix("LifeSignal: Invitation. Someone who has this number invited you to be their responder."), "\(text)")
        #expect(!text.contains("Ann"), "a stranger's SMS carries no word the inviter chose: \(text)")
        // Only the first name and the role: not her last name, not her number.
        #expect(!text.contains("Tester") && !text.contains("5550000001"), "\(text)")
        let link = try #require(texts.first?.link)
        #expect(text.hasSuffix(link.absoluteString))
        #expect(link.absoluteString.hasPrefix("https://ls.test/i/"))
        let verified = fixture.links.verifyInvitation(link.lastPathComponent, now: fixture.test.clock.now)
        #expect(verified?.invitationID == invitation.id)
        // The page the link opens names the inviter and the role.
        let page = try await fixture.backend.invitationPage(for: try #require(verified))
        #expect(page?.inviterFirstName == "Ann" && page?.asResponder == true)
    }

    @Test("a refused invitation sends nothing: a second invite to the same number, a self-invite, an existing contact", arguments: Engine.allCases)
    func refusedInvitationQueuesNothing(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let bob = try await fixture.test.person("+15550000002", "Bob")
        try await fixture.test.link(responder: bob, dependent: ann)
        _ = try await fixture.invite(ann, Self.stranger)

        await #expect(throws: DomainError.self) { _ = try await fixture.invite(ann, Self.stranger) }
        await #expect(throws: DomainError.self) { _ = try await fixture.invite(ann, "+15550000001") }
        await #expect(throws: DomainError.self) { _ = try await fixture.invite(ann, "+15550000002") }

        #expect(try await fixture.rows("kind = 'invitation'").count == 1)
        #expect(await fixture.sms.messages(to: Self.stranger).count == 1)
        #expect(try await fixture.test.count("contact_invitations") == 1)
    }

    @Test("a number with an account gets the in-app notification; an SMS of it only when their SMS choice is all", arguments: Engine.allCases)
    func accountHolderFollowsTheirChoice(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let cat = try await fixture.test.person("+15550000003", "Cat")
        let dan = try await fixture.test.person("+15550000004", "Dan")
        _ = try await fixture.backend.deliveries.updatePreferences(caller: dan, sms: .all)

        _ = try await fixture.invite(ann, "+15550000003")
        _ = try await fixture.invite(ann, "+15550000004")

        #expect(try await fixture.rows("kind = 'invitation'").isEmpty, "no invitation SMS to an account")
        #expect(try await fixture.test.notifications(cat).contains { $0.title == "Contact invitation" })
        // Cat keeps the default (SMS for urgent messages only): nothing by SMS.
        #expect(try await fixture.rows("address = '+15550000003'").isEmpty)
        let dans = try await fixture.rows("address = '+15550000004'")
        #expect(dans.count == 1)
        #expect(try dans.first?.string("kind") == NotificationType.system.rawValue)
        let danID = try dan.requireUser().rawValue
        #expect(dans.first?.optionalUUID("user_id") == danID)
        let text = try #require(await fixture.sms.messages(to: "+15550000004").first?.text)
        #expect(text.contains("invited you to be their responder") && !text.contains("Ann"), "\(text)")
        // The app's list of invitations names the inviter.
        #expect(try await fixture.backend.contacts.contacts(caller: dan).receivedInvitations.first?.inviterName == "Ann Tester")
    }

    @Test("an inviter gets N invitations a day, then rate_limited until the oldest leaves the window; nothing written", arguments: Engine.allCases)
    func perInviterCap(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine, limits: InvitationLimits(invitationsPerInviterPerDay: 2))
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let cat = try await fixture.test.person("+15550000003", "Cat")
        _ = try await fixture.invite(ann, "+15550009001")
        fixture.test.clock.advance(by: 3600)
        // An invitation to an account counts too, so a refusal never says whether a number has one.
        _ = try await fixture.invite(ann, "+15550000003")
        fixture.test.clock.advance(by: 60)

        for number in ["+15550009002", "+15550000004"] {
            do {
                _ = try await fixture.invite(ann, number)
                Issue.record("the third invitation in a day was taken")
            } catch DomainError.rateLimited(let wait) {
                // The first one leaves the window 24 h after it was made: 22 h 59 min from now.
                #expect(wait == 24 * 3600 - 3660, "\(wait)")
            }
        }
        #expect(try await fixture.test.count("contact_invitations") == 2)
        #expect(try await fixture.rows("kind = 'invitation'").count == 1)
        #expect(await fixture.sms.messages(to: "+15550009002").isEmpty)

        // Someone else is not held back by Ann's count.
        _ = try await fixture.invite(cat, "+15550009002")
        // Once the first leaves the window, Ann may invite again.
        fixture.test.clock.advance(by: 24 * 3600 - 3660)
        _ = try await fixture.invite(ann, "+15550009003")
        #expect(await fixture.sms.messages(to: "+15550009003").count == 1)
    }

    @Test("one number gets at most N invitation SMS a day from everyone; later invitations are made without one", arguments: Engine.allCases)
    func perNumberCap(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine, limits: InvitationLimits(smsPerNumberPerDay: 2))
        var inviters: [Caller] = []
        for (index, name) in ["Ann", "Bea", "Cal"].enumerated() {
            inviters.append(try await fixture.test.person("+1555000000\(index + 1)", name))
        }
        for inviter in inviters { _ = try await fixture.invite(inviter, Self.stranger) }

        #expect(try await fixture.test.count("contact_invitations") == 3)
        #expect(try await fixture.rows("kind = 'invitation'").count == 2)
        #expect(await fixture.sms.messages(to: Self.stranger).count == 2)
        // A day later the number may be told again.
        fixture.test.clock.advance(by: 24 * 3600 + 1)
        let later = try await fixture.test.person("+15550000009", "Eve")
        _ = try await fixture.invite(later, Self.stranger)
        #expect(await fixture.sms.messages(to: Self.stranger).count == 3)
    }

    @Test("without links the SMS still goes, saying how to answer; without an SMS sender no row is queued", arguments: Engine.allCases)
    func withoutLinksOrSender(engine: Engine) async throws {
        let noLinks = try await InvitationSMSFixture.make(engine, withLinks: false)
        let ann = try await noLinks.test.person("+15550000001", "Ann")
        _ = try await noLinks.invite(ann, Self.stranger, .dependent)
        let texts = await noLinks.sms.messages(to: Self.stranger)
        #expect(texts.count == 1 && texts.first?.link == nil)
        #expect(
            texts.first?.text
                == "LifeSignal: Invitation. Someone who has this number invited you to be their dependent. To see who and answer, get the app and sign in with this number."
        )

        let noSender = try await InvitationSMSFixture.make(engine, smsChannel: false)
        let bea = try await noSender.test.person("+15550000001", "Bea")
        _ = try await noSender.invite(bea, Self.stranger)
        #expect(try await noSender.rows().isEmpty)
        #expect(try await noSender.test.count("contact_invitations") == 1)
    }

    @Test("the SMS never carries the inviter's name or number, whatever they call themselves", arguments: Engine.allCases)
    func inviterNameIsBounded(engine: Engine) async throws {
        let fixture = try await InvitationSMSFixture.make(engine)
        let nameless = Caller.user(try await fixture.test.signIn("+15550000001").user.id)
        _ = try await fixture.invite(nameless, Self.stranger)
        let wordy = try await fixture.test.person("+15550000002", "Annabelle Your bank account is locked call now")
        _ = try await fixture.invite(wordy, "+15550009002")

        let first = try #require(await fixture.sms.messages(to: Self.stranger).first?.text)
        #expect(first.hasPrefix("LifeSignal: Invitation. Someone who has this number invited you") && !first.contains("5550000001"), "\(first)")
        let second = try #require(await fixture.sms.messages(to: "+15550009002").first?.text)
        #expect(second.hasPrefix("LifeSignal: Invitation. Someone who has this number invited you"), "\(second)")
        for word in ["Annabelle", "bank", "locked", "call now"] { #expect(!second.contains(word), "\(second)") }
    }
}
