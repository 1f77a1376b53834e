import Foundation
import LifeSignalDomain

/// Check-ins that carry an idempotency key: a check-in pressed while a phone was offline is
/// kept by the page and sent when the connection returns, perhaps more than once (a retry, a
/// second tab), and must count once. The first request with a key records the check-in and
/// the key; any later one with the same key gets that same result and records nothing.
extension CheckInService {
    static let idempotencyMigration = Migration(
        version: 280, name: "check-in idempotency keys",
        statements: [
            """
            CREATE TABLE lifesignal_check_in_keys (
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                key text NOT NULL,
                checked_in_at timestamptz NOT NULL,
                deadline timestamptz NOT NULL,
                interval_seconds integer NOT NULL,
                PRIMARY KEY (user_id, key))
            """
        ])

    /// How long a key is remembered: longer than any phone stays offline with a check-in
    /// waiting, and keys older than that are removed as new ones arrive.
    public static let idempotencyKeyLifetime: TimeInterval = 7 * 24 * 3600

    /// A key is 8 to 100 characters of `A-Z a-z 0-9 - _` (a UUID, a random base64url string).
    public static func validateIdempotencyKey(_ key: String) throws(DomainError) {
        guard (8...100).contains(key.count),
            key.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { throw .invalidArgument("An idempotency key is 8 to 100 letters, digits, - or _") }
    }

    /// Checks the caller in once per `key`: the same key again answers the first check-in's
    /// result and records nothing.
    /// A PIN is checked as ``checkIn(caller:source:pin:)`` checks it, before the key is looked up.
    public func checkIn(caller: Caller, source: Source = .manual, pin: String? = nil, idempotencyKey key: String) async throws -> CheckInResult {
        let userID = try caller.requireUser()
        try Self.validateIdempotencyKey(key)
        let duress = try await pins.verify(userID, pin: pin) == .duress
        let now = clock.now()
        let (result, outbox): (CheckInResult, Outbox) = try await database.transaction { connection in
            // The person's row first, so two requests with one key take turns here.
            guard try await connection.first("SELECT id FROM users WHERE id = \(userID)" + connection.forUpdate) != nil else {
                throw DomainError.notFound("User \(userID)")
            }
            if let row = try await connection.first(
                "SELECT checked_in_at, deadline, interval_seconds FROM lifesignal_check_in_keys WHERE user_id = \(userID) AND key = \(key)")
            {
                let interval = try CheckInInterval(seconds: TimeInterval(try row.int("interval_seconds")))
                return (CheckInResult(checkedInAt: try row.date("checked_in_at"), deadline: try row.date("deadline"), interval: interval), Outbox())
            }
            let (result, outbox) = try await Self.record(userID, source: source, now: now, duress: duress, in: connection)
            try await connection.query(
                "DELETE FROM lifesignal_check_in_keys WHERE user_id = \(userID) AND checked_in_at < \(now.addingTimeInterval(-Self.idempotencyKeyLifetime))")
            try await connection.query(
                """
                INSERT INTO lifesignal_check_in_keys (user_id, key, checked_in_at, deadline, interval_seconds)
                VALUES (\(userID), \(key), \(result.checkedInAt), \(result.deadline), \(Int(result.interval.seconds)))
                """)
            return (result, outbox)
        }
        await notifier.deliver(outbox)
        return result
    }
}
