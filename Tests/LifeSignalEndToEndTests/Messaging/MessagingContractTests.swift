import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Seed `002_…`'s `MessagingClient` on every adapter: local in-process, Supabase over HTTP on
/// SQLite and PostgreSQL, Firebase callables replayed. Every wait is bounded; that something
/// did not arrive is shown by a later marker message being the next one that does.
@Suite("MessagingClient contract", .serialized)
struct MessagingContractTests {
    @Test("the token is made once, kept until deleted, then new; the token stream tells both", arguments: AdapterBackend.withFirebase)
    func token(backend: AdapterBackend) async throws {
        let harness = try await MessagingHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.alice.messaging
        // Opened before there is a token: it waits for one, then follows it across deletion.
        let messages = alice.messageStream()
        let tokens = alice.tokenStream()
        // Following the token asks for one, as FCM's automatic initialisation does.
        let first = try #require(try await firstElement(of: tokens))
        #expect(try await alice.token() == first)
        #expect(try await alice.token() == first)
        #expect(first.count >= 43)
        #expect(try await harness.owner(of: first) == harness.people.aliceID)

        try await alice.deleteToken()
        #expect(try await harness.owner(of: first) == nil)
        try await alice.deleteToken()
        let second = try await alice.token()
        #expect(second != first)
        #expect(try await alice.token() == second)
        #expect(try await firstElement(of: tokens) == second)
        #expect(try await harness.owner(of: second) == harness.people.aliceID)
        try await alice.subscribe("after-delete")
        try await harness.sendToTopic("after-delete", "To the new token")
        #expect(try await firstElement(of: messages)?.title == "To the new token")
        // Another device of the same person has a token of its own.
        #expect(try await harness.bob.messaging.token() != second)
    }

    @Test("a push from a contact arrives on the message stream with its title, body and data", arguments: AdapterBackend.withFirebase)
    func realEvent(backend: AdapterBackend) async throws {
        let harness = try await MessagingHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.people.aliceClients
        let bob = harness.people.bobClients
        // Alice scans Bob's code: Bob becomes her responder.
        let code = try await bob.contacts.qrCode().id
        _ = try await alice.contacts.addByQRCode(code, .responder)
        _ = try await harness.bob.messaging.token()
        let messages = harness.bob.messaging.messageStream()

        let id = try await alice.notifications.sendPush(UserID(harness.people.bobID), "Hi", "Are you OK?")
        let pushed = try #require(try await firstElement(of: messages))
        #expect(pushed.title == "Hi" && pushed.body == "Are you OK?" && pushed.topic == nil)
        #expect(pushed.data["notificationId"] == id.uuidString.lowercased() && pushed.data["type"] == "system")
        #expect(pushed.data["contactId"] == harness.people.aliceID.uuidString.lowercased())

        // An SOS: Bob is Alice's responder, so his device hears of it, once.
        _ = try await alice.alerts.trigger()
        let alert = try #require(try await firstElement(of: messages))
        #expect(alert.data["type"] == NotificationType.alertActivatedReceived.rawValue)
        let record = try #require(try await bob.notifications.notifications().first { $0.type == .alertActivatedReceived })
        #expect(alert.data["notificationId"] == record.id.uuidString.lowercased() && alert.title == record.title)
        #expect(alert.id != pushed.id)
        try await harness.sendToTopic("unused-topic", "nobody listens")
        _ = try await alice.notifications.sendPush(UserID(harness.people.bobID), "Marker", "")
        #expect(try await firstElement(of: messages)?.title == "Marker")
    }

    @Test(
        "a subscribed topic's messages arrive; after unsubscribing they do not; bad names and senders are refused",
        arguments: AdapterBackend.withFirebase)
    func topics(backend: AdapterBackend) async throws {
        let harness = try await MessagingHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.alice.messaging
        try await alice.subscribe("weather.eu")
        try await alice.subscribe("marker")
        let messages = alice.messageStream()

        #expect(try await harness.sendToTopic("weather.eu", "Storm", "Stay in", data: ["level": "red"]) == 1)
        let storm = try #require(try await firstElement(of: messages))
        #expect(storm.title == "Storm" && storm.body == "Stay in" && storm.topic == "weather.eu" && storm.data["level"] == "red")

        try await alice.unsubscribe("weather.eu")
        try await alice.unsubscribe("never-subscribed")
        #expect(try await harness.sendToTopic("weather.eu", "Storm again") == 0)
        try await harness.sendToTopic("marker", "Marker")
        #expect(try await firstElement(of: messages)?.title == "Marker")

        let before = try await harness.people.test.count("topic_subscriptions")
        for bad in ["", "has space", "/topics/news", "ünï"] {
            await #expect(throws: DomainError.self) { try await alice.subscribe(bad) }
            #expect(await ErrorCodes.of { try await alice.subscribe(bad) } == "invalid_argument")
            #expect(await ErrorCodes.of { try await alice.unsubscribe(bad) } == "invalid_argument")
            do { try await alice.subscribe(bad) } catch { #expect(MessagingError(error) == .invalidTopic) }
        }
        #expect(try await harness.people.test.count("topic_subscriptions") == before)

        // Only the backend sends to topics.
        let send = Data(#"{"topic":"marker","title":"Spoof","body":""}"#.utf8)
        #expect(await ErrorCodes.of { _ = try await harness.people.aliceClients.functions.call("send-topic-message", send) } == "forbidden")
        try await harness.sendToTopic("marker", "Marker 2")
        #expect(try await firstElement(of: messages)?.title == "Marker 2")
    }

    @Test("another person's token and inbox stay theirs; a token taken over starts empty", arguments: AdapterBackend.withFirebase)
    func ownership(backend: AdapterBackend) async throws {
        let harness = try await MessagingHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.alice.messaging
        let bobFunctions = harness.people.bobClients.functions
        let token = try await alice.token()
        try await alice.subscribe("news")
        try await harness.sendToTopic("news", "For Alice")

        let read = Data(#"{"token":"\#(token)"}"#.utf8)
        #expect(await ErrorCodes.of { _ = try await bobFunctions.call("get-device-messages", read) } == "not_found")
        #expect(await ErrorCodes.of { _ = try await bobFunctions.call("unregister-push-token", read) } == "not_found")
        #expect(try await harness.owner(of: token) == harness.people.aliceID)

        // Bob registers Alice's token as his: he gets the device, not her messages or topics.
        try await harness.people.bobClients.notifications.registerPushToken(token, "fcm")
        let page = try JSONSerialization.jsonObject(with: try await bobFunctions.call("get-device-messages", read)) as? [String: Any]
        #expect((page?["messages"] as? [Any])?.isEmpty == true)
        #expect(try await harness.sendToTopic("news", "After the move") == 0)
        do {
            try await alice.subscribe("news")
            Issue.record("Alice subscribed with a token that is Bob's now")
        } catch {
            #expect(MessagingError(error) == .notRegistered)
        }
        // Alice's device lets the lost token go and gets a new one.
        try await alice.deleteToken()
        #expect(try await harness.owner(of: token) == harness.people.bobID)
        #expect(try await alice.token() != token)
    }

    @Test("signed out: no token, no topics", arguments: AdapterBackend.withFirebase)
    func signedOut(backend: AdapterBackend) async throws {
        let harness = try await MessagingHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.alice
        try await alice.auth.signOut()
        #expect(await ErrorCodes.of { _ = try await alice.messaging.token() } == "unauthenticated")
        #expect(await ErrorCodes.of { try await alice.messaging.subscribe("news") } == "unauthenticated")
        do { _ = try await alice.messaging.token() } catch { #expect(MessagingError(error) == .tokenUnavailable) }
        try await alice.messaging.deleteToken()
        #expect(try await harness.people.test.count("push_tokens") == 0)
    }
}
