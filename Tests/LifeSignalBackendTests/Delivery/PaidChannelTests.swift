import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Issue 31: what may leave by SMS and email, attack by attack, with recording senders on both
/// engines. Each attack is repeated and what went out is counted.
@Suite("Paid channels: nothing abusable leaves")
struct PaidChannelTests {
    /// SMS and email `all` for `caller`, so anything that may go by a paid channel would.
    static func everything(_ fixture: LedgerFixture, _ caller: Caller) async throws {
        _ = try await fixture.backend.deliveries.updatePreferences(caller: caller, sms: .all, email: .all)
    }

    @Test("send-push-notification's free text reaches push and the app only, never SMS or email", arguments: Engine.allCases)
    func freeTextStaysFree(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, bob) = try await fixture.annAndBob()
        try await fixture.confirmEmail(ann, "ann@example.com")
        for person in [ann, bob] { try await Self.everything(fixture, person) }
        for recipient in [ann, bob] {
            _ = try await fixture.test.call(
                "send-push-notification", ann,
                ["userId": try recipient.requireUser().description, "title": "WIN A PRIZE", "body": "Claim it at https://evil.example/x"])
        }
        #expect(await fixture.sms.sent.isEmpty)
        #expect(await fixture.email.sent.isEmpty)
        #expect(try await fixture.rows("channel <> 'push'").isEmpty)
        // Still a notification in the app, and a push to Bob's device.
        #expect(try await fixture.test.notifications(bob, .system).contains { $0.title == "WIN A PRIZE" })
        #expect(try await fixture.rows("channel = 'push' AND address = 'bob-phone'").count == 1)
    }

    @Test("a name in an alert is bounded and carries no link, number or address", arguments: Engine.allCases)
    func namesAreStripped(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, _) = try await fixture.annAndBob()
        // The profile's own checks refuse such a name; it can still come from older data or
        // another backend's write, so the message does not trust it.
        try await fixture.backend.database.query(
            SQL(
                "UPDATE users SET first_name = $1, last_name = $2 WHERE id = $3",
                bindings: [.text("WIN A PRIZE call 09005550199 at evil.example/x"), .text("me@evil.example"), .uuid(try ann.requireUser().rawValue)]))
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        let message = try #require(await fixture.sms.messages(to: "+15550000002").first)
        // The link is the server's own; what the person wrote is the title and body.
        let words = message.title + " " + message.body
        for forbidden in ["0900", "555", "evil.example", "@", "/x", "http"] { #expect(!words.contains(forbidden), "\(forbidden) in \(words)") }
        #expect(message.text.hasSuffix(message.link?.absoluteString ?? "no link"))
        let title = message.title
        #expect(title.count <= "ALERT:  needs help!".count + 32, "\(title)")
        #expect(title.hasPrefix("ALERT: WIN A PRIZE call at evil"), "\(title)")
    }

    @Test(
        "ten SOS/cancel pairs: the responder gets 3 rounds and their all-clears by SMS, the rest by push; the person is told once", arguments: Engine.allCases)
    func alertRoundsAreBounded(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, _) = try await fixture.annAndBob()
        for _ in 0..<10 {
            _ = try await fixture.backend.alerts.trigger(caller: ann)
            _ = try await fixture.backend.alerts.cancel(caller: ann)
        }
        let bobTexts = await fixture.sms.messages(to: "+15550000002")
        #expect(bobTexts.count == 6, "\(bobTexts.map(\.title))")
        #expect(bobTexts.filter { $0.kind == .alertActivatedReceived }.count == 3)
        #expect(bobTexts.filter { $0.kind == .alertCancelledReceived }.count == 3, "an all-clear goes only where the alert went")
        #expect(await fixture.email.messages(to: "bob@example.com").count == 6)
        let pushes = await fixture.test.pushes?.messages(to: "bob-phone") ?? []
        #expect(pushes.count == 20, "push and the app hear every round")
        // Ann's own phone heard her first three rounds too, no more.
        #expect(await fixture.sms.messages(to: "+15550000001").count == 6)
        let notices = try await fixture.test.notifications(ann, .system).filter { $0.title == "Alerts by app only for now" }
        #expect(notices.count == 1)
        #expect(notices.first?.body.contains("in the app only") == true)
        #expect(fixture.backend.configuration.deliveryRules.held.snapshot()[HeldMessage.Key(channel: .sms, reason: .alertRounds)] ?? 0 >= 14)

        // An hour later the rounds count afresh.
        fixture.test.clock.advance(by: 3601)
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 7)
    }

    @Test("an account made by email gets no SMS rows: it has no number", arguments: Engine.allCases)
    func emailOnlyAccountsHaveNoSMS(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, _) = try await fixture.annAndBob()
        // This server mails, so the address is confirmed by the code it was sent first.
        let signedUp = try await fixture.backend.auth.signUp(email: "cat@example.com", password: "correct horse")
        guard case .confirmationSent = signedUp else {
            Issue.record("a server that mails confirms the address first: \(signedUp)")
            return
        }
        let mail = try #require(await fixture.email.messages(to: "cat@example.com").first)
        let code = try #require(mail.body.split(separator: " ").first { $0.count == 7 && $0.hasSuffix(".") }.map { String($0.dropLast()) })
        let session = try await fixture.backend.auth.verifySignUp(email: "cat@example.com", code: code)
        let cat = Caller.user(session.user.id)
        _ = try await fixture.backend.profiles.update(caller: cat, ProfileUpdate(firstName: "Cat", lastName: "Tester"))
        try await fixture.test.link(responder: cat, dependent: ann)
        try await Self.everything(fixture, cat)
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        let cats = try await fixture.rows("user_id = '\(session.user.id)'")
        #expect(try cats.map { try $0.string("channel") } == ["email"], "\(cats)")
        #expect(try await fixture.rows("channel = 'sms' AND address = ''").isEmpty)
    }

    @Test("a responder who signed up with someone else's address gets no alert email until it is confirmed", arguments: Engine.allCases)
    func unconfirmedMailboxes(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let mallory = try await fixture.test.person("+15550000002", "Mallory")
        try await fixture.test.link(responder: mallory, dependent: ann)
        try await Self.everything(fixture, mallory)
        // Claimed, never confirmed: the address someone typed in is not theirs yet.
        try await fixture.backend.database.query(
            SQL(
                "UPDATE auth_users SET email = 'victim@example.com', email_confirmed_at = NULL WHERE id = $1",
                bindings: [.uuid(try mallory.requireUser().rawValue)]))
        _ = try await fixture.backend.alerts.trigger(caller: ann, location: AlertLocation(latitude: 51.5, longitude: -0.12, time: fixture.test.clock.now))
        #expect(await fixture.email.messages(to: "victim@example.com").isEmpty)
        #expect(try await fixture.rows("channel = 'email'").isEmpty)
        // Her SMS names no place: the page behind the link shows it.
        let text = try #require(await fixture.sms.messages(to: "+15550000002").first?.body)
        #expect(!text.contains("51.5") && text.contains("shared where they are"), "\(text)")
    }

    @Test("an address confirmed without proof (sign-up before the server mailed) gets no mail until its code comes back", arguments: Engine.allCases)
    func autoconfirmedAddressesProveThemselves(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        let cat = try await fixture.test.person("+15550000003", "Cat")
        try await fixture.test.link(responder: cat, dependent: ann)
        // As a server without SMTP left it: confirmed at sign-up, never proven.
        try await fixture.backend.database.query(
            SQL(
                "UPDATE auth_users SET email = 'cat@example.com', email_confirmed_at = $1 WHERE id = $2",
                bindings: [.timestamp(fixture.test.clock.now), .uuid(try cat.requireUser().rawValue)]))
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.email.messages(to: "cat@example.com").isEmpty)
        // A stranger asking for codes to an address with no account, or a proven one, mails nothing.
        try await fixture.backend.auth.resendSignUpCode(email: "nobody@example.com")
        #expect(await fixture.email.messages(to: "nobody@example.com").isEmpty)

        try await fixture.backend.auth.resendSignUpCode(email: "cat@example.com")
        let mail = try #require(await fixture.email.messages(to: "cat@example.com").first)
        let code = try #require(mail.body.split(separator: " ").first { $0.count == 7 && $0.hasSuffix(".") }.map { String($0.dropLast()) })
        _ = try await fixture.backend.auth.verifySignUp(email: "cat@example.com", code: code)
        _ = try await fixture.backend.alerts.cancel(caller: ann)
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.email.messages(to: "cat@example.com").filter { $0.kind == .alertActivatedReceived }.count == 1)
        fixture.test.clock.advance(by: 120)
        try await fixture.backend.auth.resendSignUpCode(email: "cat@example.com")
        #expect(await fixture.email.messages(to: "cat@example.com").filter { $0.kind == .system }.count == 1, "a proven address needs no code")
    }

    @Test("the daily SMS budget: an invitation past it sends nothing, an alert to a responder still goes and the operator hears", arguments: Engine.allCases)
    func budget(engine: Engine) async throws {
        var rules = DeliveryRules()
        // Ann's and Bob's sign-in codes count too: two of the four.
        rules.caps.smsPerDay = 4
        let fixture = try await LedgerFixture.make(engine, rules: rules)
        let (ann, _) = try await fixture.annAndBob()
        for number in ["+15550009001", "+15550009002", "+15550009003"] {
            _ = try await fixture.backend.contacts.invite(caller: ann, phone: number, roles: .responder)
        }
        #expect(await fixture.sms.messages(to: "+15550009001").count == 1)
        #expect(await fixture.sms.messages(to: "+15550009002").count == 1)
        #expect(await fixture.sms.messages(to: "+15550009003").isEmpty, "the budget was spent")
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 1, "the alert to Bob goes past the budget")
        let held = fixture.backend.configuration.deliveryRules.held.snapshot()
        #expect(held[HeldMessage.Key(channel: .sms, reason: .budget)] == 1)
        #expect((held[HeldMessage.Key(channel: .sms, reason: .overBudget)] ?? 0) >= 1)
        let summary = try await fixture.backend.deliveries.summary()
        #expect(summary.budgetSpent[.sms] == 6, "two codes, two invitations, and the alert to Bob and to Ann herself past the budget")
    }

    @Test("SMS only to the allowed countries: an invitation abroad and a responder abroad get none", arguments: Engine.allCases)
    func countries(engine: Engine) async throws {
        var rules = DeliveryRules()
        rules.smsCountries = try SMSCountries.parse("US")
        let fixture = try await LedgerFixture.make(engine, rules: rules)
        let ann = try await fixture.test.person("+15550000001", "Ann")
        // No code goes to a number abroad now, so Lord's account predates the setting.
        let lord = try await fixture.test.person("+15550000003", "Lord")
        try await fixture.backend.database.query(
            "UPDATE users SET phone = '+447700900123' WHERE id = \(SQLValue(try lord.requireUser().rawValue))")
        try await fixture.test.link(responder: lord, dependent: ann)
        await #expect(throws: DomainError.self) { try await fixture.backend.auth.requestCode(phone: "+447700900124") }
        _ = try await fixture.backend.contacts.invite(caller: ann, phone: "+18765550100", roles: .responder)
        _ = try await fixture.backend.contacts.invite(caller: ann, phone: "+15550009009", roles: .responder)
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.sms.messages(to: "+18765550100").isEmpty, "Jamaica shares +1 but is not the US")
        #expect(await fixture.sms.messages(to: "+447700900123").isEmpty)
        #expect(await fixture.sms.messages(to: "+15550009009").count == 1)
        #expect(try await fixture.test.notifications(lord, .alertActivatedReceived).count == 1, "the app still tells him")
        #expect(fixture.backend.configuration.deliveryRules.held.snapshot()[HeldMessage.Key(channel: .sms, reason: .country)] == 2)
    }

    @Test("deleting the account and signing up again resets neither the number's invitation SMS nor the inviter's count", arguments: Engine.allCases)
    func capsOutliveAccounts(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let target = "+15550009100"
        var sent = 0
        for round in 0..<3 {
            for index in 0..<2 {
                let phone = "+1555000\(round)\(index)10"
                let inviter = try await fixture.test.person(phone, "Inviter")
                _ = try await fixture.backend.contacts.invite(caller: inviter, phone: target, roles: .responder)
                try await fixture.backend.profiles.deleteAccount(caller: inviter)
                // The same phone signs up again and invites again.
                let again = try await fixture.test.person(phone, "Again")
                _ = try? await fixture.backend.contacts.invite(caller: again, phone: target, roles: .responder)
                try await fixture.backend.profiles.deleteAccount(caller: again)
                sent += 2
            }
        }
        #expect(sent == 12)
        #expect(await fixture.sms.messages(to: target).count == 3, "three invitation SMS a day to one number, however many accounts")

        // One inviter's day: 20 invitations, then 429 — also after deleting the account.
        let busy = try await fixture.test.person("+15550000777", "Busy")
        for index in 0..<20 {
            _ = try await fixture.backend.contacts.invite(caller: busy, phone: "+1555001\(String(format: "%04d", index))", roles: .responder)
        }
        try await fixture.backend.profiles.deleteAccount(caller: busy)
        let reborn = try await fixture.test.person("+15550000777", "Busy")
        await #expect(throws: DomainError.self) {
            _ = try await fixture.backend.contacts.invite(caller: reborn, phone: "+15550019999", roles: .responder)
        }
    }
}
