import Crypto
import Foundation
import LifeSignalDomain

/// Authentication's codes part: six-digit codes sent by SMS that prove a phone (sign-in, a
/// phone change, reauthentication), within the captcha, the resend interval and the sending
/// caps (`SignInCodes+Caps.swift`), and checked against a limit of wrong guesses.
///
/// It knows nothing of accounts or sessions: a code that checks out is handed back
/// (``Outcome/accepted(_:)``) for the flow that asked to act on.
public struct SignInCodes: Sendable {
    let database: any Database
    let clock: BackendClock
    /// Codes are stored as an HMAC under a key derived from the project secret.
    let key: SymmetricKey
    let sms: any SMSSender
    let testOTPs: TestOTPs
    let limits: SignInLimits
    /// The daily counts and SMS countries codes are sent within.
    let rules: DeliveryRules
    /// Asked before a code is sent or an account made, when the operator demands a captcha.
    let captcha: (any CaptchaVerifier)?

    /// Longest `captcha_token` passed to the captcha provider, in bytes.
    public static let maximumCaptchaTokenLength = 8192

    init(
        database: any Database, clock: BackendClock, secret: String, sms: any SMSSender, testOTPs: TestOTPs, limits: SignInLimits,
        rules: DeliveryRules, captcha: (any CaptchaVerifier)?
    ) {
        self.database = database
        self.clock = clock
        self.key = SymmetricKey(data: SHA256.hash(data: Data(("otp:" + secret).utf8)))
        self.sms = sms
        self.testOTPs = testOTPs
        self.limits = limits
        self.rules = rules
        self.captcha = captcha
    }

    /// What checking a code found: the code's row (still to be acted on), a session issued for
    /// it, or why it failed.
    enum Outcome: Sendable {
        case accepted(SQLRow)
        case issued(IssuedSession)
        case wrong, burned, expired

        func session() throws -> IssuedSession {
            switch self {
            case .issued(let session): return session
            case .accepted, .expired: throw DomainError.otpExpired
            case .wrong: throw DomainError.invalidOTP
            case .burned: throw DomainError.tooManyAttempts
            }
        }
    }

    /// Refuses a request without a solved captcha when the operator demands one
    /// (``AuthRefusal/captchaFailed``); a provider that cannot be reached refuses too, since
    /// the captcha is what stands between a script and the operator's SMS bill.
    func checkCaptcha(_ token: String?, clientAddress: String?) async throws {
        guard let captcha else { return }
        guard let token, !token.isEmpty else { throw AuthRefusal.captchaFailed("no captcha_token was sent") }
        // hCaptcha's and Turnstile's tokens are at most a few kilobytes: a longer one is not sent on.
        guard token.utf8.count <= Self.maximumCaptchaTokenLength else { throw AuthRefusal.captchaFailed("the captcha_token is too long") }
        let solved: Bool
        do {
            solved = try await captcha.verify(token: token, remoteIP: clientAddress)
        } catch {
            throw AuthRefusal.captchaFailed("the captcha could not be checked")
        }
        guard solved else { throw AuthRefusal.captchaFailed("the captcha was not solved or was used before") }
    }

    /// Issues a fresh code of `purpose` for `phone`, replacing any earlier one (whatever its
    /// purpose), within the sending caps, and sends it by SMS. `user` is who the code is for
    /// when the code proves something about an account (reauthentication).
    func send(to phone: PhoneNumber, purpose: String, user: UserID?, clientAddress: String?, by channel: CodeChannel = .sms) async throws {
        let now = clock.now()
        let code = try await database.transaction { connection in
            try await issue(to: phone, purpose: purpose, user: user, clientAddress: clientAddress, now: now, in: connection)
        }
        try await deliver(code, to: phone, by: channel)
    }

    /// Stores a fresh code of `purpose` for `phone` in the caller's transaction, within the
    /// resend interval and the caps, replacing any earlier one; ``deliver(_:to:)`` sends it
    /// once the transaction has committed.
    func issue(
        to phone: PhoneNumber, purpose: String, user: UserID?, clientAddress: String?, now: Date, in connection: any SQLConnection
    ) async throws -> OneTimeCode {
        var generator = SystemRandomNumberGenerator()
        let code = testOTPs.codes[phone] ?? OneTimeCode.random(using: &generator)
        let owner: SQLValue = user.map { SQLValue($0.rawValue) } ?? .null
        try await ensureMayBeSent(to: phone, from: clientAddress, now: now, in: connection)
        try await connection.query(
            """
            INSERT INTO auth_one_time_codes (phone, code_hash, attempts, expires_at, created_at, purpose, user_id)
            VALUES (\(phone.digits), \(hash(phone: phone, code: code)), 0, \(SQLValue(now + OneTimeCode.lifetime)), \(SQLValue(now)), \(purpose), \(owner))
            ON CONFLICT (phone) DO UPDATE SET code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at,
                created_at = excluded.created_at, purpose = excluded.purpose, user_id = excluded.user_id
            """)
        return code
    }

    /// Sends a stored code. A code that never reached the phone must not hold off a retry for
    /// the resend interval: it is removed (only this code; a newer one, sent meanwhile, stays).
    func deliver(_ code: OneTimeCode, to phone: PhoneNumber, by channel: CodeChannel = .sms) async throws {
        do {
            try await sms.send(code: code, to: phone, by: channel)
        } catch {
            let hash = hash(phone: phone, code: code)
            _ = try? await database.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits) AND code_hash = \(hash)")
            throw error
        }
    }

    /// Checks `code` against the live code for `phone` of this `purpose`: deletes it when
    /// accepted or expired, counts a wrong guess otherwise. A code guessed wrong too often is
    /// kept, burned, until it expires or ``OneTimeCode/resendInterval`` lets a new one replace
    /// it: deleting it would let a guesser ask for a fresh code at once.
    func consume(phone: PhoneNumber, code: OneTimeCode, purpose: String, now: Date, in connection: any SQLConnection) async throws -> Outcome {
        guard
            let row = try await connection.first(
                SQL(
                    "SELECT code_hash, attempts, expires_at, user_id FROM auth_one_time_codes WHERE phone = $1 AND purpose = $2",
                    bindings: [.text(phone.digits), .text(purpose)]) + connection.forUpdate)
        else { return .expired }
        if try row.date("expires_at") <= now {
            try await connection.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits)")
            return .expired
        }
        let attemptsSoFar = try row.int("attempts")
        if attemptsSoFar >= OneTimeCode.maximumAttempts { return .burned }
        guard AuthService.constantTimeEqual(try row.string("code_hash"), hash(phone: phone, code: code)) else {
            let attempts = attemptsSoFar + 1
            try await connection.query("UPDATE auth_one_time_codes SET attempts = \(attempts) WHERE phone = \(phone.digits)")
            return attempts >= OneTimeCode.maximumAttempts ? .burned : .wrong
        }
        try await connection.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits)")
        return .accepted(row)
    }

    func hash(phone: PhoneNumber, code: OneTimeCode) -> String {
        mac("\(phone.e164):\(code.value)")
    }

    /// The stored form of a code: an HMAC under ``key``, in hex.
    func mac(_ text: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)).map { String(format: "%02x", $0) }.joined()
    }
}
