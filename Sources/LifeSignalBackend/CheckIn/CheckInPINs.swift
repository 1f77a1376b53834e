import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A person's check-in PIN and duress PIN: set, read back as "set or not", and checked.
///
/// Both are kept in a private table (`lifesignal_check_in_pins`, reachable by no API role),
/// hashed with the password hasher on its pool (``Passwords/hashing``), never in the clear.
/// A PIN is short, so guesses are counted before they are checked, per person, under
/// `pin:<user>` in the password throttle: ``guessLimit`` wrong ones an hour, then every PIN
/// check-in of that person is refused until the hour ends. Being locked out can only make an
/// alert happen, never hide one.
///
/// A check always spends two hashes, the PIN's and the duress PIN's (against nothing when there
/// is none), so a normal and a duress check-in take the same time.
public struct CheckInPINs: Sendable {
    let database: any Database
    let clock: BackendClock
    let passwords: Passwords

    /// Wrong PINs a person may send within ``guessWindow`` (about 1 in 830 of guessing a
    /// 4-digit PIN in an hour).
    public static let guessLimit = 5
    public static let guessWindow: TimeInterval = 3600

    static let migration = Migration(
        version: 290, name: "check-in PINs",
        statements: [
            """
            CREATE TABLE lifesignal_check_in_pins (
                user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                pin_hash text NOT NULL,
                duress_hash text,
                updated_at timestamptz NOT NULL)
            """
        ],
        postgresOnly: ["ALTER TABLE lifesignal_check_in_pins ENABLE ROW LEVEL SECURITY"])

    /// What a PIN given with a check-in turned out to be.
    enum Verdict: Sendable, Equatable {
        /// The person has no PIN: any check-in counts, whatever it carried.
        case noPIN
        case pin
        case duress
    }

    /// Whether the caller has a PIN and a duress PIN.
    public func settings(caller: Caller) async throws -> CheckInPINSettings {
        let user = try caller.requireUser()
        let row = try await database.query("SELECT duress_hash FROM lifesignal_check_in_pins WHERE user_id = \(user)").first
        return CheckInPINSettings(hasPIN: row != nil, hasDuressPIN: row?.optionalString("duress_hash") != nil)
    }

    /// Sets both PINs at once: `pin` `nil` removes both, `duressPIN` `nil` removes the duress PIN.
    public func set(caller: Caller, pin: String?, duressPIN: String?) async throws -> CheckInPINSettings {
        let user = try caller.requireUser()
        try CheckInPIN.validate(pin: pin, duressPIN: duressPIN)
        let now = clock.now()
        guard let pin else {
            try await database.query("DELETE FROM lifesignal_check_in_pins WHERE user_id = \(user)")
            return CheckInPINSettings()
        }
        let hashes = try await passwords.hashing.run { [hasher = passwords.hasher] in (hasher.hash(pin), duressPIN.map(hasher.hash)) }
        try await database.transaction { connection in
            guard try await connection.first("SELECT id FROM users WHERE id = \(user)") != nil else { throw DomainError.notFound("User \(user)") }
            try await connection.query(
                """
                INSERT INTO lifesignal_check_in_pins (user_id, pin_hash, duress_hash, updated_at) VALUES (\(user), \(hashes.0), \(hashes.1), \(now))
                ON CONFLICT (user_id) DO UPDATE SET pin_hash = excluded.pin_hash, duress_hash = excluded.duress_hash, updated_at = excluded.updated_at
                """)
            try await passwords.attempts.clear(for: Self.attemptKey(user), in: connection)
        }
        return CheckInPINSettings(hasPIN: true, hasDuressPIN: duressPIN != nil)
    }

    /// Checks `pin` for a check-in by `user`.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` when the person has a PIN and none was
    ///   given; ``DomainError/forbidden(_:)`` for a wrong one (counted);
    ///   ``DomainError/rateLimited(retryAfter:)`` past ``guessLimit``.
    func verify(_ user: UserID, pin: String?) async throws -> Verdict {
        guard let row = try await database.query("SELECT pin_hash, duress_hash FROM lifesignal_check_in_pins WHERE user_id = \(user)").first
        else { return .noPIN }
        guard let pin = pin?.trimmingCharacters(in: .whitespaces), !pin.isEmpty else {
            throw DomainError.invalidArgument("This check-in needs your PIN")
        }
        let key = Self.attemptKey(user)
        if let wait = try await passwords.attempts.reserve(for: key, now: clock.now(), limit: Self.guessLimit, window: Self.guessWindow) {
            throw DomainError.rateLimited(retryAfter: wait)
        }
        let stored = try row.string("pin_hash")
        let duress = row.optionalString("duress_hash")
        let matches: (pin: Bool, duress: Bool)
        do {
            // Both hashes, always, in this order: the two answers cost the same.
            let hasher = passwords.hasher
            let isPIN = try await passwords.hashing.run { hasher.verify(pin, against: stored) }
            let isDuress = try await passwords.hashing.run { duress.map { hasher.verify(pin, against: $0) } ?? hasher.verifyAgainstNothing(pin) }
            matches = (isPIN, isDuress)
        } catch {
            try? await passwords.attempts.refund(for: key)
            throw error
        }
        guard matches.pin || matches.duress else { throw DomainError.forbidden("That is not your check-in PIN") }
        try await database.transaction { try await passwords.attempts.clear(for: key, in: $0) }
        return matches.duress ? .duress : .pin
    }

    static func attemptKey(_ user: UserID) -> String { "pin:\(user)" }
}

extension LifeSignalBackend {
    /// Check-in PINs (``CheckInPINs``).
    public var checkInPINs: CheckInPINs { checkIns.pins }
}
