import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Authentication's passwords part: hashes made and checked on their own threads
/// (``PasswordHashingPool``), guesses counted per identifier (``PasswordAttempts``), and a
/// right password exchanged for a session. Accounts are made and changed by ``AuthService``'s
/// flows, which ask this part for hashes.
public struct Passwords: Sendable {
    let database: any Database
    let clock: BackendClock
    let hasher: PasswordHasher
    /// Where every password hash runs: off the cooperative pool, bounded.
    public let hashing: PasswordHashingPool
    public let attempts: PasswordAttempts
    let sessions: Sessions

    init(database: any Database, clock: BackendClock, hasher: PasswordHasher, limits: SignInLimits, sessions: Sessions) {
        self.database = database
        self.clock = clock
        self.hasher = hasher
        self.hashing = PasswordHashingPool(maximumInFlight: limits.passwordHashConcurrency, maximumWaiting: limits.passwordHashWaiting)
        self.attempts = PasswordAttempts(database: database)
        self.sessions = sessions
    }

    /// Signs in with email or phone and password. An unknown account costs the same hashing
    /// as a wrong password, so timing does not tell which accounts exist.
    ///
    /// Each attempt is counted against ``PasswordAttempts/limit`` *before* the password is
    /// checked; past the limit the identifier is refused for a while with
    /// ``DomainError/rateLimited(retryAfter:)`` (``PasswordAttempts``), and so is a
    /// sign-in when the hashing pool's line is full.
    public func signIn(email: String?, phone: String?, password: String) async throws -> IssuedSession {
        let identifier: String
        let lookup: SQL?
        if let email {
            let address = (try? AuthService.normalizedEmail(email)) ?? email.lowercased()
            identifier = "email:" + address
            lookup = "SELECT * FROM auth_users WHERE email = \(address)"
        } else if let phone, let number = try? PhoneNumber(phone.hasPrefix("+") ? phone : "+" + phone) {
            identifier = "phone:" + number.digits
            lookup = "SELECT * FROM auth_users WHERE phone = \(number.digits)"
        } else {
            identifier = "phone:" + (phone ?? "")
            lookup = nil
        }
        let now = clock.now()
        if let wait = try await attempts.reserve(for: identifier, now: now) { throw DomainError.rateLimited(retryAfter: wait) }
        let row: SQLRow? = if let lookup { try await database.query(lookup).first } else { nil }
        // No account, or one without a password (phone sign-in only): the same hashing work
        // is spent before refusing, so timing does not tell which accounts exist.
        let stored = row?.optionalString("encrypted_password").flatMap { $0.isEmpty ? nil : $0 }
        let matches: Bool
        do {
            matches = try await hashing.run { [hasher] in
                stored.map { hasher.verify(password, against: $0) } ?? hasher.verifyAgainstNothing(password)
            }
        } catch {
            try? await attempts.refund(for: identifier)
            throw error
        }
        guard let row, matches else { throw AuthRefusal.invalidCredentials }
        // GoTrue answers a right password to an unconfirmed address so, not as a wrong one.
        if email != nil, row.optionalDate("email_confirmed_at") == nil { throw AuthRefusal.emailNotConfirmed }
        // A hash made with fewer rounds than configured is replaced now, while the password
        // is at hand: raising ``PasswordHasher/defaultIterations`` reaches every account that
        // signs in. A failure here must not refuse a correct password: the old hash stays.
        let upgraded: String? =
            if let stored, hasher.needsUpgrade(stored) {
                try? await hashing.run { [hasher] in hasher.hash(password) }
            } else { nil }
        return try await database.transaction { connection in
            guard
                let updated = try await connection.first(
                    """
                    UPDATE auth_users SET last_sign_in_at = \(SQLValue(now)), updated_at = \(SQLValue(now)),
                        encrypted_password = coalesce(CAST(\(upgraded.map(SQLValue.text) ?? .null) AS text), encrypted_password)
                    WHERE id = \(SQLValue(try row.uuid("id"))) RETURNING *
                    """)
            else { throw AuthRefusal.invalidCredentials }
            try await attempts.clear(for: identifier, in: connection)
            return try await sessions.start(for: try AuthUser(row: updated), method: "password", isNewUser: false, now: now, in: connection)
        }
    }

    /// A new password's stored form, computed on the hashing pool.
    func hash(_ password: String) async throws -> String {
        try await hashing.run { [hasher] in hasher.hash(password) }
    }
}
