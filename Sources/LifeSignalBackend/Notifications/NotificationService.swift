import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The notification history, device tokens and direct pushes: the rules behind
/// `mark-notifications-read`, `clear-notifications`, `register-push-token` and
/// `send-push-notification`. Notifications themselves are created by the other rules, in the
/// same transaction as the change they report.
public struct NotificationService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier
    /// Where a `web` token may point (``WebPushEndpoints``); `nil`: no Web Push here.
    let webPushEndpoints: WebPushEndpoints?

    /// Longest accepted device token; FCM tokens are about 160 characters, APNs 64.
    public static let maximumTokenLength = 4096
    public static let maximumTitleLength = 200
    public static let maximumBodyLength = 2000

    /// The caller's notifications, newest first.
    public func notifications(caller: Caller, limit: Int = 100) async throws -> [NotificationRecord] {
        let me = try caller.requireUser()
        return try await database.query(
            SQL.raw("SELECT \(NotificationRecord.columns) FROM notifications") + """
                 WHERE user_id = \(me) ORDER BY created_at DESC, id LIMIT \(max(1, min(limit, 1000)))
                """
        ).map(NotificationRecord.init(row:))
    }

    /// Marks the caller's notifications with `ids` as read, or all of them when `ids` is `nil`.
    /// Ids that are not the caller's are ``DomainError/notFound(_:)`` and nothing changes.
    /// Returns how many changed from unread to read.
    @discardableResult
    public func markRead(caller: Caller, ids: [UUID]?) async throws -> Int {
        let me = try caller.requireUser()
        let now = clock.now()
        let (count, outbox): (Int, Outbox) = try await database.transaction { connection in
            var filter: SQL = ""
            if let ids {
                guard !ids.isEmpty else { return (0, Outbox()) }
                let unique = Array(Set(ids))
                let list = SQL.join(unique.map { "\($0)" }, separator: ", ")
                let owned =
                    try await connection.first(
                        """
                        SELECT count(*) AS n FROM notifications WHERE user_id = \(me) AND id IN (\(list))
                        """)?.int("n") ?? 0
                guard owned == unique.count else { throw DomainError.notFound("Notification") }
                filter = " AND id IN (\(list))"
            }
            let rows = try await connection.query(
                """
                UPDATE notifications SET is_read = \(true), read_at = \(now) WHERE user_id = \(me) AND is_read = \(false)
                """ + filter + " RETURNING id")
            var outbox = Outbox()
            for row in rows { outbox.change("notifications", .update, try row.uuid("id"), owner: me, at: now) }
            return (rows.count, outbox)
        }
        await notifier.deliver(outbox)
        return count
    }

    /// Deletes the caller's notifications of `types` (all types when `nil`); returns how many.
    @discardableResult
    public func clear(caller: Caller, types: [NotificationType]?) async throws -> Int {
        let me = try caller.requireUser()
        let now = clock.now()
        let (count, outbox): (Int, Outbox) = try await database.transaction { connection in
            var filter: SQL = ""
            if let types {
                guard !types.isEmpty else { return (0, Outbox()) }
                filter = " AND type IN (" + SQL.join(Set(types).map { "\($0.rawValue)" }, separator: ", ") + ")"
            }
            let rows = try await connection.query("DELETE FROM notifications WHERE user_id = \(me)" + filter + " RETURNING id")
            var outbox = Outbox()
            for row in rows { outbox.change("notifications", .delete, try row.uuid("id"), owner: me, at: now) }
            return (rows.count, outbox)
        }
        await notifier.deliver(outbox)
        return count
    }

    public enum Platform: String, Sendable, Codable, CaseIterable { case fcm, apns, web }

    /// Registers a device token for the caller. A person may have several devices; a token
    /// seen before under another account moves to this one (the phone changed hands), without
    /// its topic subscriptions and inbox: those are deleted, so the newcomer never reads what
    /// was sent to the previous owner.
    public func registerPushToken(caller: Caller, token: String, platform: Platform = .fcm) async throws {
        let me = try caller.requireUser()
        let given = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !given.isEmpty, given.count <= Self.maximumTokenLength else {
            throw DomainError.invalidArgument("A push token is 1 to \(Self.maximumTokenLength) characters")
        }
        let trimmed: String
        // A `web` token is either FCM's registration token for a browser (sent through FCM,
        // as before) or, written as JSON, a browser's own Web Push subscription.
        if platform == .web, WebPushEndpoints.isSubscription(given) {
            guard let webPushEndpoints else { throw DomainError.failedPrecondition("This server does not send Web Push") }
            trimmed = try webPushEndpoints.validate(given)
        } else {
            trimmed = given
        }
        let now = clock.now()
        _ = try await database.transaction { connection in
            // The newcomer starts with an empty device: the previous owner's topics and inbox
            // are theirs, not the phone's (see `MessagingService`).
            try await connection.query("DELETE FROM topic_subscriptions WHERE token = \(trimmed) AND user_id <> \(me)")
            try await connection.query("DELETE FROM device_messages WHERE token = \(trimmed) AND user_id <> \(me)")
            try await connection.query(
                """
                INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
                VALUES (\(trimmed), \(me), \(platform.rawValue), \(now), \(now))
                ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform,
                    updated_at = excluded.updated_at
                """)
        }
    }

    /// The caller's registered tokens.
    public func pushTokens(caller: Caller) async throws -> [String] {
        let me = try caller.requireUser()
        return try await database.query("SELECT token FROM push_tokens WHERE user_id = \(me) ORDER BY created_at, token")
            .map { try $0.string("token") }
    }

    /// Sends a notification (stored, streamed and pushed) to `recipient`. A person may notify
    /// only their contacts (or themselves); the service role may notify anyone.
    public func send(caller: Caller, to recipient: UserID, title: String, body: String) async throws -> NotificationRecord {
        let sender: UserID?
        switch caller {
        case .anonymous: throw DomainError.unauthenticated
        case .service: sender = nil
        case .user(let id): sender = id
        }
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, title.count <= Self.maximumTitleLength, body.count <= Self.maximumBodyLength else {
            throw DomainError.invalidArgument(
                "A push has a title of 1 to \(Self.maximumTitleLength) characters and a body of at most \(Self.maximumBodyLength)")
        }
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            guard try await connection.first("SELECT id FROM users WHERE id = \(recipient)") != nil else {
                throw DomainError.notFound("User \(recipient)")
            }
            if let sender, sender != recipient, try await ContactPairs.roles(of: recipient, for: sender, in: connection) == nil {
                throw DomainError.forbidden("You can only notify your contacts")
            }
            return try await NotificationStore.outbox(
                [
                    NotificationDraft(recipient: recipient, type: .system, title: title, body: body, contactID: sender, freeChannelsOnly: true)
                ], now: now, in: connection)
        }
        await notifier.deliver(outbox)
        guard let record = outbox.notifications.first else { throw DomainError.internal("notification was not stored") }
        return record
    }
}
