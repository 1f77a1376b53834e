import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Profile and account")
struct ProfileTests {
    @Test("names, note, phone (only the verified one) and avatar are checked before anything is written", arguments: Engine.allCases)
    func profileRules(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = Caller.user(try await test.signIn("+15550000001").user.id)
        let reply = try await test.call(
            "update-user-profile", ann,
            [
                "firstName": " Anne-Marie ", "lastName": "O'Neil", "emergencyNote": "Allergic to penicillin",
                "avatarUrl": "https://cdn.example.com/a.png",
            ])
        #expect(reply["firstName"] as? String == "Anne-Marie" && reply["lastName"] as? String == "O'Neil")
        #expect(reply["checkInInterval"] as? Int == 86400 && reply["reminderLead"] as? String == "30_minutes")
        let rejected: [[String: any Sendable]] = [
            ["firstName": "A"], ["lastName": String(repeating: "x", count: 51)], ["firstName": "R2D2"],
            ["lastName": "Valid", "firstName": "X"], ["emergencyNote": String(repeating: "n", count: 1001)],
            ["avatarUrl": "ftp://x/a.png"], ["phone": "555"], ["emergencyNote": "Allergic\u{0} to nothing"],
        ]
        for body in rejected {
            await #expect(throws: DomainError.self) { try await test.call("update-user-profile", ann, body) }
        }
        let profile = try await test.backend.profiles.profile(caller: ann)
        #expect(profile.firstName == "Anne-Marie" && profile.lastName == "O'Neil" && profile.avatarURL == "https://cdn.example.com/a.png")
        // Only the number proved with a code at sign-in, however it is written.
        await #expect(throws: DomainError.self) { try await test.backend.profiles.update(caller: ann, ProfileUpdate(phone: "+44 20 7946 0000")) }
        let cleared = try await test.backend.profiles.update(caller: ann, ProfileUpdate(phone: "+1 555 000 0001", avatarURL: ""))
        #expect(cleared.avatarURL == nil && cleared.phone == "+15550000001")
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.profiles.update(caller: .anonymous, ProfileUpdate()) }
    }

    @Test("check-in settings: interval 1 h to 7 days, reminder lead, deadline recomputed", arguments: Engine.allCases)
    func checkInSettings(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = Caller.user(try await test.signIn("+15550000001").user.id)
        let checkIn = try await test.backend.checkIns.checkIn(caller: ann)
        let reply = try await test.call("update-check-in-settings", ann, ["checkInInterval": 7200, "reminderLead": "none"])
        #expect(reply["checkInInterval"] as? Int == 7200 && reply["reminderLead"] as? String == "none")
        #expect(reply["nextCheckInTime"] as? String == Timestamp.format(checkIn.checkedInAt.addingTimeInterval(7200)))
        for body: [String: any Sendable] in [
            ["checkInInterval": 3599], ["checkInInterval": 604_801], ["reminderLead": "1_hour"],
            ["reminderLead": "2_hours"],
        ] {
            await #expect(throws: DomainError.self) { try await test.call("update-check-in-settings", ann, body) }
        }
        let week = try await test.backend.profiles.updateCheckInSettings(caller: ann, interval: try .hours(168), reminderLead: .twoHours)
        #expect(week.deadline == checkIn.checkedInAt.addingTimeInterval(604_800) && week.reminderLead == .twoHours)
        #expect(try await test.backend.checkIns.status(caller: ann).interval.seconds == 604_800)
        // Before any check-in there is no deadline to move.
        let bob = Caller.user(try await test.signIn("+15550000002").user.id)
        #expect(try await test.backend.profiles.updateCheckInSettings(caller: bob, interval: try .hours(1), reminderLead: ReminderLead.none).deadline == nil)
    }

    @Test("deleting the account removes the person, both sides of every relation, and their tokens", arguments: Engine.allCases)
    func deleteAccount(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: ann, dependent: cat)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        try await test.backend.pings.ping(caller: ann, dependent: cat.userID)
        _ = try await test.backend.alerts.trigger(caller: ann)
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        _ = try await test.backend.contacts.invite(caller: ann, phone: "+15550000004", roles: .both)
        let dan = try await test.person("+15550000005", "Dan")
        _ = try await test.backend.contacts.invite(caller: dan, phone: "+15550000001", roles: .dependent)
        _ = try await test.call("delete-user-account", ann)
        for table in ["contacts", "pings", "alerts", "push_tokens", "contact_invitations", "check_ins"] {
            #expect(try await test.count(table) == 0, "\(table)")
        }
        #expect(try await test.backend.database.query("SELECT id FROM users").count == 3)
        #expect(try await test.backend.auth.user(id: ann.userID) == nil)
        #expect(try await test.notifications(bob, .contactRemoved).count == 1)
        #expect(try await test.notifications(cat, .contactRemoved).count == 1)
        #expect(try await test.backend.contacts.contacts(caller: bob).contacts.isEmpty)
        await #expect(throws: DomainError.notFound("User \(ann.userID)")) { try await test.backend.profiles.deleteAccount(caller: ann) }
    }
}
