import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// QR codes that link only while their owner shows them (docs/security.md, "Consent").
///
/// A code is `users.qr_code_id`, valid while `qr_code_expires_at` lies ahead. The owner's
/// screen asks for it (`get-qr-code`), which mints a fresh one when none is valid; a link by it
/// spends it. Showing the code is the owner's consent to whoever scans it in that moment, so a
/// code seen once (a photo, a screenshot, a contact's old copy) must not link anyone later.
/// Unknown, expired and spent codes are refused alike (``unknown``), so no answer tells which.
public enum QRCodes {
    /// How long a shown code links, unless the backend is configured otherwise.
    public static let defaultLifetime: TimeInterval = 10 * 60

    /// The one refusal for a code that does not link now, whatever the reason.
    static let unknown = DomainError.notFound("QR code")

    /// The owner (`id, first_name, last_name, phone`) of a code that links at `now`.
    static func owner(of code: UUID, now: Date, in connection: any SQLConnection) async throws -> SQLRow? {
        try await connection.first(
            """
            SELECT id, first_name, last_name, phone, qr_code_id FROM users
            WHERE qr_code_id = \(code) AND qr_code_expires_at > \(now)
            """)
    }

    /// The person's code when it still links at `now`, else a fresh one valid for `lifetime`.
    static func current(of user: UserID, lifetime: TimeInterval, now: Date, in connection: any SQLConnection) async throws -> (QRCode, Outbox) {
        guard
            let row = try await connection.first(
                "SELECT qr_code_id, qr_code_expires_at FROM users WHERE id = \(user)" + connection.forUpdate)
        else {
            throw DomainError.notFound("User \(user)")
        }
        if let expiresAt = row.optionalDate("qr_code_expires_at"), expiresAt > now {
            return (QRCode(id: try row.uuid("qr_code_id"), expiresAt: expiresAt), Outbox())
        }
        return try await mint(for: user, lifetime: lifetime, now: now, in: connection)
    }

    /// Replaces the person's code by a fresh one valid for `lifetime`; the old one stops
    /// linking at once.
    static func mint(for user: UserID, lifetime: TimeInterval, now: Date, in connection: any SQLConnection) async throws -> (QRCode, Outbox) {
        let code = QRCode(id: UUID(), expiresAt: now.addingTimeInterval(max(1, lifetime)))
        guard
            try await connection.first(
                """
                UPDATE users SET qr_code_id = \(code.id), qr_code_expires_at = \(code.expiresAt), updated_at = \(now)
                WHERE id = \(user) RETURNING id
                """) != nil
        else { throw DomainError.notFound("User \(user)") }
        var outbox = Outbox()
        outbox.change("users", .update, user.rawValue, owner: user, at: now)
        return (code, outbox)
    }

    /// Spends `code` of `owner`: it must still link at `now` (else ``unknown``, also when a
    /// concurrent scan spent it first: the owner's row is locked by then). The owner's next
    /// `get-qr-code` mints a new one.
    static func spend(_ code: UUID, of owner: UserID, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        guard
            try await connection.first(
                """
                UPDATE users SET qr_code_id = \(UUID()), qr_code_expires_at = NULL, updated_at = \(now)
                WHERE id = \(owner) AND qr_code_id = \(code) AND qr_code_expires_at > \(now) RETURNING id
                """) != nil
        else { throw unknown }
        var outbox = Outbox()
        outbox.change("users", .update, owner.rawValue, owner: owner, at: now)
        return outbox
    }
}
