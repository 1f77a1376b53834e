import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Caps on sign-in codes sent, against SMS pumping: every code is a paid message, and a
/// stranger who may ask for codes freely can run up the bill (or earn from premium numbers).
/// The resend interval alone still allows one code a minute to every number in the world.
///
/// - at most ``SignInLimits/codesPerNumberPerDay`` codes to one number in a day;
/// - at most ``SignInLimits/codesPerNumberPerAddressPerDay`` codes to one number at the request
///   of one client address in a day, counted first: a stranger asking for someone's codes from
///   one address stops there, leaving the number's own day to its owner;
/// - at most ``SignInLimits/codesPerAddressPerHour`` codes at the request of one client
///   address in an hour (only where the caller has an address: requests over HTTP);
/// - only to the countries SMS may go to (``DeliveryRules/smsCountries``), and within the
///   server's daily SMS budget (``SendingCaps/smsPerDay``), which codes count against too.
///
/// And a new code for a phone is not sent while one sent less than
/// ``OneTimeCode/resendInterval`` ago is still pending (GoTrue's `sms_max_frequency`). A code
/// that was used is gone, so signing in again at once works; a code burned by wrong guesses
/// stays pending, so the guesser cannot ask for a fresh code and guess again at once. Numbers
/// with fixed test codes are not limited: they are the operator's own numbers for testing.
///
/// Each count is a fixed window that opens with its first code, kept in the database so every
/// server on one PostgreSQL shares it (`lifesignal_send_counts`, beside the other caps). A refused request counts nothing and sends nothing;
/// it is told when the window ends (``DomainError/rateLimited(retryAfter:)``).
extension SignInCodes {
    /// The code caps counted in `lifesignal_send_counts` with every other cap, under `code:`
    /// keys; their own table goes (windows open afresh, at most a day early).
    static let sharedCountsMigration = Migration(
        version: 270, name: "sign-in code caps share the send counts",
        statements: ["DROP TABLE auth_code_send_counts"])

    static let sendingCapsMigration = Migration(
        version: 150, name: "sign-in code sending caps",
        statements: [
            """
            CREATE TABLE auth_code_send_counts (
                key text PRIMARY KEY,
                sent integer NOT NULL,
                window_started_at timestamptz NOT NULL)
            """
        ],
        postgresOnly: ["ALTER TABLE auth_code_send_counts ENABLE ROW LEVEL SECURITY"])

    /// Counts one code for `phone` and for `clientAddress`, throwing when either cap is passed.
    /// Called inside the transaction that stores the code, so a throw rolls both counts back.
    func countSent(to phone: PhoneNumber, from clientAddress: String?, now: Date, in connection: any SQLConnection) async throws {
        guard rules.smsAllowed(to: phone.e164) else {
            let country = SMSCountries.country(of: phone) ?? "an unknown country"
            throw DomainError.invalidArgument("LifeSignal does not send SMS to numbers in \(country) on this server")
        }
        if let clientAddress {
            try await count(
                key: "number-address:" + phone.digits + "|" + clientAddress, limit: limits.codesPerNumberPerAddressPerDay,
                window: SignInLimits.codeNumberWindow, now: now, in: connection)
        }
        try await count(
            key: "number:" + phone.digits, limit: limits.codesPerNumberPerDay,
            window: SignInLimits.codeNumberWindow, now: now, in: connection)
        if let clientAddress {
            try await count(
                key: "address:" + clientAddress, limit: limits.codesPerAddressPerHour,
                window: SignInLimits.codeAddressWindow, now: now, in: connection)
        }
        do {
            try await SendCounter.spendOrRefuse(.sms, limit: rules.caps.smsPerDay, now: now, in: connection)
        } catch let error as DomainError {
            rules.report(HeldMessage(channel: .sms, reason: .budget, kind: "sign_in_code"))
            throw error
        }
    }

    /// One code counted against `key`'s window, or refused when the window is full: the one
    /// windowed counter every cap uses (``SendCounter``), under keys of their own (`code:`).
    private func count(key: String, limit: Int, window: TimeInterval, now: Date, in connection: any SQLConnection) async throws {
        try await SendCounter.require("code:" + key, limit: limit, window: window, now: now, in: connection)
    }

    /// Refuses to replace a code for `phone` sent less than ``OneTimeCode/resendInterval`` ago,
    /// then counts the code against the caps on codes per number and per client address
    /// (``countSent(to:from:now:in:)``). Runs inside the transaction that stores the code, so
    /// a refusal rolls every count back.
    func ensureMayBeSent(to phone: PhoneNumber, from clientAddress: String?, now: Date, in connection: any SQLConnection) async throws {
        guard testOTPs.codes[phone] == nil else { return }
        if let pending = try await connection.first("SELECT created_at FROM auth_one_time_codes WHERE phone = \(phone.digits)") {
            let allowedAt = try pending.date("created_at") + OneTimeCode.resendInterval
            if allowedAt > now { throw DomainError.rateLimited(retryAfter: allowedAt.timeIntervalSince(now).rounded(.up)) }
        }
        try await countSent(to: phone, from: clientAddress, now: now, in: connection)
    }
}
