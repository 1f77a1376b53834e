import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Notifications")
struct NotificationsTests {
    @Test("every device of a person gets the push; none when notifications are off, but the row stays", arguments: Engine.allCases)
    func pushTokens(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.call("register-push-token", bob, ["token": "bob-phone"])
        _ = try await test.call("register-push-token", bob, ["token": "bob-tablet", "platform": "apns"])
        _ = try await test.call("register-push-token", bob, ["token": "bob-phone"])
        #expect(try await test.backend.notifications.pushTokens(caller: bob) == ["bob-phone", "bob-tablet"])
        await #expect(throws: DomainError.self) { try await test.call("register-push-token", bob, ["token": "  "]) }
        await #expect(throws: DomainError.invalidArgument("platform is fcm, apns or web, not \"pager\"")) {
            try await test.call("register-push-token", bob, ["token": "t", "platform": "pager"])
        }
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        _ = try await test.backend.alerts.trigger(caller: ann)
        #expect(await test.pushes?.messages(to: "bob-tablet").map(\.title) == ["Ping sent", "ALERT: Ann Tester needs help!"])
        #expect(await test.pushes?.messages(to: "bob-phone").count == 2)
        _ = try await test.backend.profiles.update(caller: bob, ProfileUpdate(notificationsEnabled: false))
        _ = try await test.backend.alerts.cancel(caller: ann)
        #expect(await test.pushes?.messages(to: "bob-phone").count == 2)
        #expect(try await test.notifications(bob, .alertCancelledReceived).count == 1)
        // A token moves with the device to whoever registers it next.
        try await test.backend.notifications.registerPushToken(caller: ann, token: "bob-tablet")
        #expect(try await test.backend.notifications.pushTokens(caller: bob) == ["bob-phone"])
    }

    @Test("mark read by id or all, clear by type; someone else's ids are not found", arguments: Engine.allCases)
    func readState(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        _ = try await test.backend.alerts.trigger(caller: ann)
        let bobs = try await test.notifications(bob)
        #expect(Set(bobs.map(\.type)) == [.contactAdded, .pingSent, .alertActivatedReceived] && bobs.allSatisfy { !$0.isRead })
        let ping = try #require(bobs.first { $0.type == .pingSent })
        let annsFirst = try #require(try await test.notifications(ann).first)
        await #expect(throws: DomainError.notFound("Notification")) {
            try await test.call("mark-notifications-read", bob, ["notificationIds": [ping.id.uuidString, annsFirst.id.uuidString]])
        }
        #expect(try await test.notifications(bob).allSatisfy { !$0.isRead })
        await #expect(throws: DomainError.invalidArgument("Give either notificationIds or all: true")) { try await test.call("mark-notifications-read", bob) }
        #expect(try await test.call("mark-notifications-read", bob, ["notificationIds": [ping.id.uuidString]])["count"] as? Int == 1)
        #expect(try await test.call("mark-notifications-read", bob, ["all": true])["count"] as? Int == 2)
        #expect(try await test.notifications(bob).allSatisfy(\.isRead))
        #expect(try await test.call("clear-notifications", bob, ["types": ["ping_sent"]])["count"] as? Int == 1)
        #expect(Set(try await test.notifications(bob).map(\.type)) == [.alertActivatedReceived, .contactAdded])
        await #expect(throws: DomainError.invalidArgument("Unknown notification type \"spam\"")) {
            try await test.call("clear-notifications", bob, ["types": ["spam"]])
        }
        #expect(try await test.call("clear-notifications", ann)["count"] as? Int == 2)
    }

    @Test("send-push-notification reaches contacts only, or anyone with the service role", arguments: Engine.allCases)
    func sendPush(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let eve = try await test.person("+15550000009", "Eve")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        let reply = try await test.call("send-push-notification", bob, ["userId": ann.userID.description, "title": "Hi", "body": "OK?"])
        #expect(reply["messageId"] is String)
        #expect(await test.pushes?.messages(to: "ann-phone").map(\.body) == ["OK?"])
        await #expect(throws: DomainError.forbidden("You can only notify your contacts")) {
            try await test.call("send-push-notification", eve, ["userId": ann.userID.description, "title": "Hi", "body": "spam"])
        }
        _ = try await test.backend.notifications.send(caller: .service, to: eve.userID, title: "Welcome", body: "")
        let nobody = UserID(UUID())
        await #expect(throws: DomainError.notFound("User \(nobody)")) {
            try await test.backend.notifications.send(caller: .service, to: nobody, title: "x", body: "")
        }
        await #expect(throws: DomainError.self) { try await test.backend.notifications.send(caller: bob, to: ann.userID, title: " ", body: "") }
        await #expect(throws: DomainError.unauthenticated) {
            try await test.backend.notifications.send(caller: .anonymous, to: ann.userID, title: "x", body: "")
        }
        #expect(try await test.notifications(ann, .system).count == 1)
    }

    @Test("the change feed streams committed rows to the owner's subscription only", arguments: Engine.allCases)
    func changeFeed(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let stream = test.backend.changes.subscribe(.init(table: "notifications", ownerID: bob.userID))
        try await test.link(responder: bob, dependent: ann)
        // A refused change publishes nothing.
        _ = try? await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.qr(bob), roles: .both)
        _ = try await test.backend.alerts.trigger(caller: ann)
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        let rows = try await test.notifications(bob).map { $0.id.uuidString.lowercased() }
        #expect(Set([first?.rowID, second?.rowID].compactMap { $0 }) == Set(rows))
        #expect(first?.kind == .insert && first?.ownerID == bob.userID)
        #expect(test.backend.changes.subscriberCount == 1)
    }

    @Test("retention: notifications go after 7 days, answered pings after 24 hours, a batch at a time", arguments: Engine.allCases)
    func retention(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        try await test.backend.pings.respond(caller: ann, to: bob.userID)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        let notifications = try await test.count("notifications")
        test.clock.advance(by: 24 * 3600 + 1)
        var report = try await test.backend.sweep.run(caller: .service)
        #expect(report.deletedPings == 1 && report.deletedNotifications == 0)
        #expect(try await test.count("pings") == 1)
        test.clock.advance(by: 6 * 24 * 3600)
        // Deleted in slices of two rows a transaction, until none is left.
        try #require(notifications > 2)
        report = try await test.backend.sweep.run(caller: .service, batchSize: 2)
        #expect(report.deletedNotifications == notifications)
        #expect(try await test.count("notifications") == 0)
        #expect(try await test.count("pings") == 1)
    }
}
