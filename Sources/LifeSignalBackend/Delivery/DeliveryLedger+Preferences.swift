import Foundation
import LifeSignalDomain
import LifeSignalFunctions

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
            try await Self.requireProfile(me, in: connection)
            try await connection.query("DELETE FROM delivery_preferences WHERE user_id = \(me)")
            try await connection.query(
                """
                INSERT INTO delivery_preferences (user_id, push, sms, email, voice, fallback, updated_at)
                VALUES (\(me), \(preferences.push.rawValue), \(preferences.sms.rawValue), \(preferences.email.rawValue), \(preferences.voice.rawValue), \
                    \(DeliveryFallback.text(preferences.fallback)), \(now))
                """)
        }
        return preferences
    }

    /// Changes only the channels given, in one statement, and returns the stored choices: two
    /// devices changing different channels at once both keep their change.
    public func updatePreferences(
        caller: Caller, push: ChannelChoice? = nil, sms: ChannelChoice? = nil,
        email: ChannelChoice? = nil, voice: ChannelChoice? = nil, fallback: [DeliveryChannel]? = nil
    ) async throws -> DeliveryPreferences {
        let me = try caller.requireUser()
        if let fallback { try DeliveryPreferences.validate(fallback: fallback) }
        let now = clock.now()
        let standard = DeliveryPreferences.standard
        var changes = [("push", push), ("sms", sms), ("email", email), ("voice", voice)].compactMap { name, choice in
            choice.map { _ in SQL.raw("\(name) = excluded.\(name)") }
        }
        if fallback != nil { changes.append("fallback = excluded.fallback") }
        let update =
            changes.isEmpty ? SQL.raw("DO NOTHING") : SQL.raw("DO UPDATE SET ") + SQL.join(changes + ["updated_at = excluded.updated_at"], separator: ", ")
        _ = try await database.transaction { connection in
            try await Self.requireProfile(me, in: connection)
            try await connection.query(
                """
                INSERT INTO delivery_preferences (user_id, push, sms, email, voice, fallback, updated_at)
                VALUES (\(me), \((push ?? standard.push).rawValue), \((sms ?? standard.sms).rawValue), \((email ?? standard.email).rawValue), \
                    \((voice ?? standard.voice).rawValue), \(DeliveryFallback.text(fallback ?? [])), \(now))
                ON CONFLICT (user_id) 
                """ + update)
        }
        return try await preferences(caller: caller)
    }

    /// Choices belong to a profile: a token whose person has no `users` row (deleted it) is
    /// told so, not answered with the foreign key's failure.
    private static func requireProfile(_ user: UserID, in connection: any SQLConnection) async throws {
        guard try await connection.first("SELECT 1 AS present FROM users WHERE id = \(user)") != nil else {
            throw DomainError.notFound("User \(user)")
        }
    }
}
