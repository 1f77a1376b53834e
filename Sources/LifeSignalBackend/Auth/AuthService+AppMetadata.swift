import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension AuthService {
    /// GoTrue admin's `app_metadata` update (`PUT /auth/v1/admin/users/<id>`, service role
    /// only): merges `changes` (a JSON object's text) into the stored object, a `null` value
    /// removing its key, as GoTrue merges it. `app_metadata.role = "editor"` makes a content
    /// editor (``DatabaseRole/contentEditor``); it reaches the person's next access token (a
    /// sign-in or a refresh, at most an hour away), never one already issued.
    ///
    /// - Returns: the account as stored, or `nil` when there is no such account.
    /// - Throws: ``DomainError/invalidArgument(_:)`` when `changes` is not a JSON object.
    public func updateAppMetadata(of id: UserID, merging changes: String) async throws -> AuthUser? {
        guard (try? JSONSerialization.jsonObject(with: Data(changes.utf8))) is [String: Any] else {
            throw DomainError.invalidArgument("app_metadata must be a JSON object")
        }
        let now = clock.now()
        return try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    SQL("SELECT app_metadata FROM auth_users WHERE id = $1", bindings: [SQLValue(id.rawValue)]) + connection.forUpdate)
            else { return nil }
            let stored = row.optionalString("app_metadata") ?? "{}"
            var merged = (try? JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: Any]) ?? [:]
            // Read again here: a `[String: Any]` cannot cross into the transaction's closure.
            let patch = (try? JSONSerialization.jsonObject(with: Data(changes.utf8)) as? [String: Any]) ?? [:]
            for (key, value) in patch {
                if value is NSNull { merged[key] = nil } else { merged[key] = value }
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys]), as: UTF8.self)
            guard
                let updated = try await connection.first(
                    """
                    UPDATE auth_users SET app_metadata = \(text), updated_at = \(SQLValue(now))
                    WHERE id = \(SQLValue(id.rawValue)) RETURNING *
                    """)
            else { return nil }
            return try AuthUser(row: updated)
        }
    }
}
