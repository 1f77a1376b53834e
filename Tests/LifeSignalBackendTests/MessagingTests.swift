import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Device messaging on the backend: every push is also kept in its device's inbox, topics
/// fan out to subscribed devices, and a token's inbox is readable only by its owner.
@Suite("Messaging")
struct MessagingTests {
    @Test("a push lands in the inbox of each of the recipient's devices, read in order after a cursor", arguments: Engine.allCases)
    func inbox(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-tablet")
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)

        let ping = try #require(try await test.notifications(ann, .pingReceived).first)
        let page = try await test.backend.messaging.messages(caller: ann, token: "ann-phone")
        #expect(page.messages.count == 1 && page.cursor > 0)
        let message = try #require(page.messages.first)
        #expect(message.title == ping.title && message.body == ping.body && message.topic == nil)
        #expect(message.data == ["type": "ping_received", "notificationId": ping.id.uuidString.lowercased(), "contactId": bob.userID.description])
        #expect(try await test.backend.messaging.messages(caller: ann, token: "ann-tablet").messages.map(\.title) == [ping.title])
        // One push to two devices is two messages.
        #expect(try await test.backend.messaging.messages(caller: ann, token: "ann-tablet").messages.first?.id != message.id)
        #expect(await test.pushes?.messages(to: "ann-phone").map(\.title) == [ping.title])

        // After the cursor: nothing, and the cursor stays put; then only what came since.
        let empty = try await test.backend.messaging.messages(caller: ann, token: "ann-phone", after: page.cursor)
        #expect(empty.messages.isEmpty && empty.cursor == page.cursor)
        _ = try await test.backend.notifications.send(caller: bob, to: ann.userID, title: "Hello", body: "From Bob")
        let next = try await test.call("get-device-messages", ann, ["token": "ann-phone", "after": page.cursor])
        let listed = try #require(next["messages"] as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["title"] as? String == "Hello" && listed.first?["body"] as? String == "From Bob")
        #expect((next["cursor"] as? Int ?? 0) > page.cursor)
        #expect(try await test.backend.messaging.messages(caller: ann, token: "ann-phone", limit: 1).messages.map(\.title) == [ping.title])

        // Someone else's token is not found, as if it did not exist; so is an unknown one.
        await #expect(throws: DomainError.notFound("Push token")) { try await test.backend.messaging.messages(caller: bob, token: "ann-phone") }
        await #expect(throws: DomainError.notFound("Push token")) { try await test.call("get-device-messages", bob, ["token": "nobody"]) }
        await #expect(throws: DomainError.unauthenticated) { try await test.call("get-device-messages", .anonymous, ["token": "ann-phone"]) }
        await #expect(throws: DomainError.invalidArgument("after is a cursor from an earlier page, 0 or more")) {
            try await test.call("get-device-messages", ann, ["token": "ann-phone", "after": -1])
        }

        // Four weeks on, what waited expires as new messages arrive (FCM's longest time to live).
        test.clock.advance(by: DeviceInbox.retention + 60)
        _ = try await test.backend.notifications.send(caller: bob, to: ann.userID, title: "Weeks later", body: "")
        #expect(try await test.backend.messaging.messages(caller: ann, token: "ann-phone").messages.map(\.title) == ["Weeks later"])
        #expect(try await test.count("device_messages") == 2)
    }

    @Test("topics: subscribed devices get the backend's topic messages; people cannot send them; bad names are refused", arguments: Engine.allCases)
    func topics(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-phone")
        _ = try await test.call("subscribe-topic", ann, ["token": "ann-phone", "topic": "weather-alerts.EU~1%"])
        _ = try await test.call("subscribe-topic", ann, ["token": "ann-phone", "topic": "weather-alerts.EU~1%"])
        #expect(try await test.backend.messaging.topics(caller: ann, token: "ann-phone") == ["weather-alerts.EU~1%"])

        for bad in ["", "has space", "/topics/news", "ünïcode", String(repeating: "a", count: 901)] {
            await #expect(throws: DomainError.invalidArgument(MessagingRules.topicRuleMessage)) {
                try await test.call("subscribe-topic", ann, ["token": "ann-phone", "topic": bad])
            }
        }
        #expect(try await test.count("topic_subscriptions") == 1)
        await #expect(throws: DomainError.notFound("Push token")) {
            try await test.call("subscribe-topic", bob, ["token": "ann-phone", "topic": "news"])
        }

        await #expect(throws: DomainError.forbidden("Only the backend sends to topics")) {
            try await test.call("send-topic-message", bob, ["topic": "weather-alerts.EU~1%", "title": "Storm", "body": "Stay in"])
        }
        await #expect(throws: DomainError.unauthenticated) {
            try await test.call("send-topic-message", .anonymous, ["topic": "weather-alerts.EU~1%", "title": "Storm", "body": "Stay in"])
        }
        #expect(try await test.count("device_messages") == 0)

        let sent = try await test.call(
            "send-topic-message", .service,
            [
                "topic": "weather-alerts.EU~1%", "title": "Storm", "body": "Stay in", "data": ["level": "red"],
            ])
        #expect(sent["count"] as? Int == 1)
        let message = try #require(try await test.backend.messaging.messages(caller: ann, token: "ann-phone").messages.first)
        #expect(message.title == "Storm" && message.topic == "weather-alerts.EU~1%" && message.data == ["level": "red", "topic": "weather-alerts.EU~1%"])
        #expect(await test.pushes?.messages(to: "ann-phone").map(\.title) == ["Storm"])
        #expect(try await test.backend.messaging.messages(caller: bob, token: "bob-phone").messages.isEmpty)

        _ = try await test.call("unsubscribe-topic", ann, ["token": "ann-phone", "topic": "weather-alerts.EU~1%"])
        _ = try await test.call("unsubscribe-topic", ann, ["token": "ann-phone", "topic": "never-subscribed"])
        #expect(try await test.backend.messaging.sendToTopic(caller: .service, topic: "weather-alerts.EU~1%", title: "Storm", body: "Again") == 0)
        #expect(try await test.count("device_messages") == 1)
        await #expect(throws: DomainError.invalidArgument(MessagingRules.topicRuleMessage)) {
            try await test.backend.messaging.sendToTopic(caller: .service, topic: "no spaces", title: "x", body: "")
        }
    }

    @Test("a token registered by someone else starts empty; unregistering removes its topics and inbox", arguments: Engine.allCases)
    func ownership(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.backend.notifications.registerPushToken(caller: ann, token: "shared-phone")
        try await test.backend.messaging.subscribe(caller: ann, token: "shared-phone", topic: "news")
        try await test.backend.messaging.sendToTopic(caller: .service, topic: "news", title: "For Ann", body: "")
        _ = try await test.backend.notifications.send(caller: ann, to: ann.userID, title: "Note to self", body: "")
        #expect(try await test.backend.messaging.messages(caller: ann, token: "shared-phone").messages.count == 2)

        // The phone changed hands: Bob sees none of Ann's messages or topics, Ann no longer reads it.
        try await test.backend.notifications.registerPushToken(caller: bob, token: "shared-phone")
        #expect(try await test.backend.messaging.messages(caller: bob, token: "shared-phone").messages.isEmpty)
        #expect(try await test.backend.messaging.topics(caller: bob, token: "shared-phone").isEmpty)
        #expect(try await test.count("device_messages") == 0)
        await #expect(throws: DomainError.notFound("Push token")) { try await test.backend.messaging.messages(caller: ann, token: "shared-phone") }
        // Registering it again under the same owner keeps what is there.
        try await test.backend.messaging.subscribe(caller: bob, token: "shared-phone", topic: "news")
        try await test.backend.messaging.sendToTopic(caller: .service, topic: "news", title: "For Bob", body: "")
        try await test.backend.notifications.registerPushToken(caller: bob, token: "shared-phone")
        #expect(try await test.backend.messaging.messages(caller: bob, token: "shared-phone").messages.map(\.title) == ["For Bob"])

        await #expect(throws: DomainError.notFound("Push token")) { try await test.call("unregister-push-token", ann, ["token": "shared-phone"]) }
        _ = try await test.call("unregister-push-token", bob, ["token": "shared-phone"])
        #expect(try await test.backend.notifications.pushTokens(caller: bob).isEmpty)
        #expect(try await test.count("device_messages") == 0)
        #expect(try await test.count("topic_subscriptions") == 0)
        await #expect(throws: DomainError.notFound("Push token")) { try await test.call("unregister-push-token", bob, ["token": "shared-phone"]) }
        // A push to a person without devices leaves no inbox behind.
        _ = try await test.backend.notifications.send(caller: bob, to: bob.userID, title: "Nobody home", body: "")
        #expect(try await test.count("device_messages") == 0)
    }

    @Test("inboxes and topic subscriptions hold device tokens, so /rest/v1 neither reads nor writes them", arguments: Engine.allCases)
    func notExposed(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550000001")
        let ann = Caller.user(session.user.id)
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        try await test.backend.messaging.subscribe(caller: ann, token: "ann-phone", topic: "news")
        _ = try await test.backend.notifications.send(caller: ann, to: ann.userID, title: "Mine", body: "")
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        for table in ["device_messages", "topic_subscriptions"] {
            let read = try await server.request("GET", "/rest/v1/\(table)?select=*", bearer: session.accessToken)
            #expect(read.status >= 400 && read.jsonArray == nil, "\(table): \(read.status)")
            let write = try await server.json("POST", "/rest/v1/\(table)", bearer: session.accessToken, ["token": "ann-phone", "topic": "spoof"])
            #expect(write.status >= 400, "\(table): \(write.status)")
        }
        #expect(try await test.count("device_messages") == 1)
        #expect(try await test.count("topic_subscriptions") == 1)
    }
}

/// Topic messages through the delivery ledger: recorded, retried when the provider fails, and
/// kept in each inbox once however often the push is tried.
@Suite("Messaging: topics through the delivery ledger")
struct TopicLedgerTests {
    /// Fails its first `failures` sends, then records what it is given.
    actor FlakyPushSender: PushSender {
        var failures: Int
        private(set) var sent: [PushMessage] = []

        init(failures: Int) { self.failures = failures }

        func send(_ messages: [PushMessage]) async throws {
            if failures > 0 {
                failures -= 1
                throw DomainError.internal("the push provider is down")
            }
            sent += messages
        }
    }

    @Test("one push row per device; a failed push is retried later and lands in the inbox once", arguments: Engine.allCases)
    func retried(engine: Engine) async throws {
        let pushes = FlakyPushSender(failures: 1)
        let test = try await TestDatabases.backend(engine) { $0.pushSender = pushes }
        let ann = try await test.person("+15550000001", "Ann")
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        _ = try await test.call("subscribe-topic", ann, ["token": "ann-phone", "topic": "news"])

        #expect(try await test.backend.messaging.sendToTopic(caller: .service, topic: "news", title: "Flood", body: "Move up") == 1)
        let row = try #require(try await test.backend.database.query("SELECT status, attempts, address FROM deliveries WHERE kind = 'topic'").first)
        #expect(try row.string("status") == "queued" && row.int("attempts") == 1 && row.string("address") == "ann-phone")
        #expect(await pushes.sent.isEmpty)
        #expect(try await test.backend.messaging.messages(caller: ann, token: "ann-phone").messages.map(\.title) == ["Flood"])

        test.clock.advance(by: 3600)
        await test.backend.deliveries.sendDue()
        #expect(try await test.backend.database.query("SELECT status FROM deliveries WHERE kind = 'topic'").first?.string("status") == "sent")
        #expect(await pushes.sent.map(\.title) == ["Flood"])
        let inbox = try await test.backend.messaging.messages(caller: ann, token: "ann-phone").messages
        #expect(inbox.map(\.title) == ["Flood"] && inbox.first?.topic == "news", "kept once, with its topic")
    }
}
