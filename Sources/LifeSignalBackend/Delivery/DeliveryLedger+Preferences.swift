import Foundation
import LifeSignalDomain

extension DeliveryLedger {
    /// The caller's channel choices (the defaults until they change one).
    public func preferences(caller: Caller) async throws -> DeliveryPreferences {
        let me = try caller.requireUser()
        return try await database.transaction { connection in
            try await Addresses.load(for: [me], channels: [], in: connection).preferences[me] ?? .standard
        }
    }

    /// Stores the caller's channel choices. They apply to notifications written from then on;
    /// what is already queued goes out as it was queued.
    @discardableResult
    public func updatePreferences(caller: Caller, _ preferences: DeliveryPreferences) async throws -> DeliveryPreferences {
        let me = try caller.requireUser()
        let now = clock.now()
        try await database.transaction { connection in
            try await connection.query("DELETE FROM delivery_preferences WHERE user_id = \(me)")
            try await connection.query("""
                INSERT INTO delivery_preferences (user_id, push, sms, email, updated_at)
                VALUES (\(me), \(preferences.push.rawValue), \(preferences.sms.rawValue), \(preferences.email.rawValue), \(now))
                """)
        }
        return preferences
    }
}
