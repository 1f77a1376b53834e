import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A device's messaging on the backend: the rules behind `unregister-push-token`,
/// `subscribe-topic`, `unsubscribe-topic`, `get-device-messages` and `send-topic-message`.
///
/// A device is its push token (`register-push-token` makes it one of the caller's). Every
/// rule that names a token first checks that it is the caller's; a token that is someone
/// else's is ``DomainError/notFound(_:)`` like one that does not exist, so a token cannot be
/// probed. A token moving to another person (`NotificationService.registerPushToken`) clears
/// its topics and inbox, so the newcomer never reads what was sent to the previous owner.
public struct MessagingService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    /// The most messages one `get-device-messages` page holds.
    public static let maximumPageSize = 500

    /// Unregisters the caller's `token`; its topic subscriptions and inbox go with it.
    public func unregister(caller: Caller, token: String) async throws {
        let me = try caller.requireUser()
        let removed = try await database.query("DELETE FROM push_tokens WHERE token = \(token) AND user_id = \(me) RETURNING token")
        guard !removed.isEmpty else { throw Self.unknownToken }
    }

    /// Messages to `topic` reach the caller's `token` from now on; subscribing twice is one
    /// subscription.
    public func subscribe(caller: Caller, token: String, topic: String) async throws {
        let me = try caller.requireUser()
        let topic = try MessagingRules.validateTopic(topic)
        let now = clock.now()
        try await database.transaction { connection in
            try await Self.requireOwned(token, by: me, in: connection)
            try await connection.query(
                """
                INSERT INTO topic_subscriptions (token, user_id, topic, created_at) VALUES (\(token), \(me), \(topic), \(now))
                ON CONFLICT (token, topic) DO NOTHING
                """)
        }
    }

    /// Stops messages to `topic` reaching the caller's `token`; not subscribed is fine.
    public func unsubscribe(caller: Caller, token: String, topic: String) async throws {
        let me = try caller.requireUser()
        let topic = try MessagingRules.validateTopic(topic)
        try await database.transaction { connection in
            try await Self.requireOwned(token, by: me, in: connection)
            try await connection.query("DELETE FROM topic_subscriptions WHERE token = \(token) AND topic = \(topic)")
        }
    }

    /// The caller's `token`'s topics, sorted.
    public func topics(caller: Caller, token: String) async throws -> [String] {
        let me = try caller.requireUser()
        return try await database.transaction { connection in
            try await Self.requireOwned(token, by: me, in: connection)
            return try await connection.query("SELECT topic FROM topic_subscriptions WHERE token = \(token) ORDER BY topic")
                .map { try $0.string("topic") }
        }
    }

    /// The messages in the caller's `token`'s inbox after `cursor` (0 for all), oldest
    /// first, at most `limit` (1 to ``maximumPageSize``).
    public func messages(caller: Caller, token: String, after cursor: Int = 0, limit: Int = 100) async throws -> DeviceMessagePage {
        let me = try caller.requireUser()
        guard cursor >= 0 else { throw DomainError.invalidArgument("after is a cursor from an earlier page, 0 or more") }
        let size = max(1, min(limit, Self.maximumPageSize))
        return try await database.transaction { connection in
            try await Self.requireOwned(token, by: me, in: connection)
            return try await DeviceInbox.page(token: token, user: me, after: cursor, limit: size, in: connection)
        }
    }

    /// Sends a message to every device subscribed to `topic` (into each inbox, and through
    /// the push sender, by the delivery ledger: ``TopicDelivery``); returns how many devices
    /// it went to. Only the service role sends to
    /// topics: a topic reaches people who are not the sender's contacts, so a signed-in person
    /// sending one is ``DomainError/forbidden(_:)``.
    @discardableResult
    public func sendToTopic(caller: Caller, topic: String, title: String, body: String, data: [String: String] = [:]) async throws -> Int {
        switch caller {
        case .anonymous: throw DomainError.unauthenticated
        case .user: throw DomainError.forbidden("Only the backend sends to topics")
        case .service: break
        }
        let topic = try MessagingRules.validateTopic(topic)
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= NotificationService.maximumTitleLength, body.count <= NotificationService.maximumBodyLength else {
            throw DomainError.invalidArgument(
                "A push has a title of 1 to \(NotificationService.maximumTitleLength) characters and a body of at most \(NotificationService.maximumBodyLength)"
            )
        }
        let now = clock.now()
        var payload = data
        payload["topic"] = topic
        let data = payload
        let ids = try await database.transaction { connection in
            try await TopicDelivery.enqueue(topic: topic, title: title, body: body, data: data, now: now, in: connection)
        }
        await notifier.ledger.sendAfterCommit(ids: ids)
        return ids.count
    }

    static let unknownToken = DomainError.notFound("Push token")

    /// ``unknownToken`` unless `token` is registered to `user`.
    static func requireOwned(_ token: String, by user: UserID, in connection: any SQLConnection) async throws {
        guard try await connection.first("SELECT 1 AS owned FROM push_tokens WHERE token = \(token) AND user_id = \(user)") != nil else {
            throw unknownToken
        }
    }
}

extension LifeSignalBackend {
    /// Device tokens' topics and inboxes.
    /// Built on demand like ``files``: it holds no state of its own, and its notifier is the
    /// same delivery path (database, change feed, push sender) the other services use.
    public var messaging: MessagingService {
        MessagingService(
            database: database, clock: clock, notifier: Notifier(database: database, changes: changes, push: configuration.pushSender, ledger: deliveries))
    }
}
