import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A row a write cell sends: a new row for `table` between two people (`owner` owns it,
/// `other` is the second party where the table has one), the column a change writes, the
/// value it writes, and the column an upsert resolves on.
struct ThrowawayRow: @unchecked Sendable {
    var row: [String: Any]
    let change: (column: String, value: Any)
    /// `on_conflict` for an upsert: the key, unless the key is generated.
    var conflict: String?

    static let now = "2026-11-25T12:00:00Z"
    static let later = "2026-01-02T03:04:05Z"

    /// A fresh row of `table`. `snapshot` supplies rows it must refer to (an alert of the
    /// owner's, the owner's device token); `users` needs an account without a row, made with
    /// one of the fixture's throwaway phones by ``account(_:)``.
    static func make(_ table: String, owner: String, other: String, snapshot: MatrixSnapshot) throws -> ThrowawayRow {
        let id = UUID().uuidString.lowercased()
        func ownersRow(_ table: String, _ column: String) throws -> MatrixRow {
            try #require(snapshot.rows[table]?.first { ($0["user_id"] as? String)?.lowercased() == owner }, "no \(table) row of \(owner) to refer to")
        }
        switch table {
        case "users":
            return ThrowawayRow(
                row: ["id": id, "phone": "+15550008888", "qr_code_id": UUID().uuidString.lowercased()],
                change: ("first_name", "Changed"))
        case "check_ins":
            return ThrowawayRow(row: ["id": id, "user_id": owner, "checked_in_at": now, "source": "manual"], change: ("source", "automatic"))
        case "contacts":
            // The owner says `other` looks after them (their responder): it opens nothing to
            // anyone, since reads follow the viewer's own `is_dependent` rows.
            return ThrowawayRow(
                row: [
                    "id": id, "user_id": owner, "contact_id": other, "is_responder": true, "is_dependent": false,
                    "notify_on_expiry": true, "added_at": now, "updated_at": now,
                ], change: ("notify_on_expiry", false))
        case "contact_invitations":
            return ThrowawayRow(
                row: [
                    "id": id, "inviter_id": owner, "invitee_phone": "+1555000\(Int.random(in: 1000...9999))",
                    "is_responder": true, "is_dependent": false, "status": "pending", "created_at": now,
                ],
                change: ("invitee_phone", "+15550009999"))
        case "alerts":
            return ThrowawayRow(
                row: ["id": id, "user_id": owner, "status": "resolved", "activated_at": now, "resolved_at": now],
                change: ("resolved_at", later))
        case "alert_responses":
            let alert = try ownersRow("alerts", "user_id")
            return ThrowawayRow(row: ["alert_id": alert["id"] ?? "", "responder_id": other, "responded_at": now], change: ("responded_at", later))
        case "alert_recipients":
            let alert = try ownersRow("alerts", "user_id")
            return ThrowawayRow(row: ["alert_id": alert["id"] ?? "", "responder_id": other, "tier": 1, "notified_at": now], change: ("tier", 2))
        case "pings":
            return ThrowawayRow(
                row: ["id": id, "sender_id": other, "recipient_id": owner, "status": "responded", "sent_at": now, "resolved_at": now],
                change: ("resolved_at", later))
        case "notifications":
            return ThrowawayRow(
                row: [
                    "id": id, "user_id": owner, "type": "system", "title": "Matrix", "body": "A throwaway notification",
                    "is_read": false, "created_at": now,
                ], change: ("title", "Changed"))
        case "documents":
            return ThrowawayRow(
                row: [
                    "path": "users/\(owner)/notes/matrix-\(id)", "parent": "users/\(owner)/notes", "owner_id": owner,
                    "data": ["note": ["stringValue": "throwaway"]], "created_at": now, "updated_at": now,
                ],
                change: ("updated_at", later))
        case "contact_role_requests":
            return ThrowawayRow(row: ["id": id, "requester_id": other, "owner_id": owner, "created_at": now], change: ("created_at", later))
        case "locations", "events", "routes":
            return ThrowawayRow(
                row: ["id": id, "name": "Matrix \(table)", "slug": "matrix-\(id)", "status": "published", "created_by": owner],
                change: ("name", "Changed"))
        case "push_tokens":
            return ThrowawayRow(
                row: ["token": "matrix-\(id)", "user_id": owner, "platform": "fcm", "created_at": now, "updated_at": now],
                change: ("platform", "web"))
        case "topic_subscriptions":
            let device = try ownersRow("push_tokens", "user_id")
            return ThrowawayRow(
                row: ["token": device["token"] ?? "", "user_id": owner, "topic": "matrix-\(id)", "created_at": now],
                change: ("created_at", later))
        case "device_messages":
            let device = try ownersRow("push_tokens", "user_id")
            return ThrowawayRow(
                row: [
                    "id": id, "token": device["token"] ?? "", "user_id": owner, "title": "Matrix", "body": "A throwaway push",
                    "data": "{}", "created_at": now,
                ], change: ("title", "Changed"), conflict: "id")
        case "deliveries":
            return ThrowawayRow(
                row: [
                    "id": id, "notification_id": id, "user_id": owner, "channel": "sms", "address": "+15550007777",
                    "kind": "system", "title": "Matrix", "body": "A throwaway message", "status": "sent",
                    "next_attempt_at": now, "created_at": now, "updated_at": now,
                ],
                change: ("status", "failed"), conflict: "id")
        case "delivery_preferences":
            // One row a person: the owner has theirs already (the fixture's), the other party not.
            return ThrowawayRow(
                row: ["user_id": other, "push": "all", "sms": "off", "email": "off", "updated_at": now],
                change: ("sms", "all"), conflict: "user_id")
        default:
            throw MatrixError(description: "no throwaway row for \(table): add one to ThrowawayRow.make")
        }
    }

    /// A signed-up account whose `users` row is gone (removed in the database, as an operator
    /// could), so that a `users` insert has an `auth_users` row to refer to; returns the row
    /// to insert again.
    static func account(_ fixture: MatrixFixture, phone: String) async throws -> ThrowawayRow {
        let session = try await MatrixFixture.signIn(fixture.server, phone)
        let rows = try await MatrixSnapshot.read(fixture.server, "users", query: "id=eq.\(session.id)")
        var row = try #require(rows.first) as [String: Any]
        try await fixture.test.backend.database.query(SQL.raw("DELETE FROM users WHERE id = '\(session.id)'"))
        row["first_name"] = "Throwaway"
        return ThrowawayRow(row: row, change: ("first_name", "Changed"))
    }
}

/// A matrix that cannot be set up as its model asks.
struct MatrixError: Error, CustomStringConvertible {
    let description: String
}
