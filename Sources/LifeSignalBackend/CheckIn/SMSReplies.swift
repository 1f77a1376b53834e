import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Texts to the server's number (Twilio's inbound-message webhook, `POST /hooks/twilio/sms`),
/// so a person with any phone can answer LifeSignal by SMS.
///
/// - `STOP` (and the carriers' synonyms) from any number: nothing more goes to it by SMS, of
///   any kind, until it sends `START` (``SMSUnreachable``). Twilio answers both keywords
///   itself, as carriers require, so no reply is sent here.
/// - `HELP`: what LifeSignal is and what to send.
/// - A check-in ("OK", "I'm fine", …) counts only from a number that is an account's
///   *verified* phone: a text's sender can be forged more easily than a session, so it proves
///   no more than the sign-in code that verified the number did. Answered with the next deadline.
/// - Anything else from an account's number: one line saying what to send. From a number with
///   no account: nothing, so a stranger learns nothing and costs the operator nothing.
///
/// Every reply is a paid SMS: it counts against the number's messages a day and the server's
/// SMS budget (``SendCounter``), and goes only to the countries SMS may go to; past them the
/// text is acted on and answered with silence.
public struct SMSReplies: Sendable {
    let database: any Database
    let clock: BackendClock
    let checkIns: CheckInService
    let rules: DeliveryRules

    public static let help =
        "LifeSignal: safety check-ins. Reply OK to check in. Reply STOP to stop all texts from LifeSignal, START to get them again."
    public static let unclear = "LifeSignal: reply OK to check in, HELP for help, or STOP to stop texts."

    /// Acts on a text `body` from `sender` (E.164) and returns the reply to send, if any.
    public func answer(from sender: String, body: String) async throws -> String? {
        guard let phone = try? PhoneNumber(sender) else { return nil }
        let now = clock.now()
        let reply = SMSReply(body)
        switch reply {
        case .stop:
            try await database.transaction { try await SMSUnreachable.record(phone.e164, reason: "stop", now: now, in: $0) }
            return nil
        case .start:
            try await database.transaction { try await SMSUnreachable.forget(phone.e164, in: $0) }
            return nil
        case .help:
            return try await mayReply(to: phone, now: now) ? Self.help : nil
        case .unclear:
            guard try await verifiedAccount(phone) != nil else { return nil }
            return try await mayReply(to: phone, now: now) ? Self.unclear : nil
        case .checkIn(let pin):
            guard let user = try await verifiedAccount(phone) else { return nil }
            let text = try await checkIn(user, pin: pin, now: now)
            return try await mayReply(to: phone, now: now) ? text : nil
        }
    }

    public static let pinNeeded = "LifeSignal: not checked in. Reply OK and your check-in PIN, e.g. OK 1234."
    public static let wrongPIN = "LifeSignal: not checked in: that is not your PIN. Reply OK and your check-in PIN."
    public static let pinLocked = "LifeSignal: not checked in: too many wrong PINs. Try again within the hour, or check in in the app."

    /// Checks `user` in and words the answer. A duress PIN gets the words the PIN gets.
    private func checkIn(_ user: UserID, pin: String?, now: Date) async throws -> String {
        do {
            let result = try await checkIns.checkIn(caller: .user(user), source: .manual, pin: pin)
            return "LifeSignal: checked in. Your next check-in is due in \(Self.describe(result.deadline.timeIntervalSince(now)))."
        } catch DomainError.checkInTooSoon {
            return "LifeSignal: you checked in a moment ago. Nothing more to do."
        } catch DomainError.invalidArgument {
            return Self.pinNeeded
        } catch DomainError.forbidden {
            return Self.wrongPIN
        } catch DomainError.rateLimited {
            return Self.pinLocked
        }
    }

    /// The account whose verified phone `phone` is.
    private func verifiedAccount(_ phone: PhoneNumber) async throws -> UserID? {
        try await Self.verifiedAccount(phone, in: database)
    }

    /// The account whose verified phone `phone` is: a text or a call from it speaks for that
    /// account no more than the sign-in code that verified the number did.
    static func verifiedAccount(_ phone: PhoneNumber, in database: any Database) async throws -> UserID? {
        try await database.query(
            "SELECT id FROM auth_users WHERE phone = \(phone.digits) AND phone_confirmed_at IS NOT NULL"
        ).first.map { UserID(try $0.uuid("id")) }
    }

    /// Counts one reply to `phone` against its day and the SMS budget, or says no.
    private func mayReply(to phone: PhoneNumber, now: Date) async throws -> Bool {
        guard rules.smsAllowed(to: phone.e164) else { return false }
        let caps = rules.caps
        return try await database.transaction { connection in
            guard try await !SMSUnreachable.contains(phone.e164, in: connection) else { return false }
            let spent = try await SendCounter.lockBudgets([.sms], now: now, in: connection)
            guard (spent[.sms] ?? 0) < caps.smsPerDay,
                try await SendCounter.reserve("dest:sms:" + phone.e164, limit: caps.perDestinationPerDay, window: SendingCaps.day, now: now, in: connection)
            else { return false }
            try await SendCounter.spend(1, of: .sms, in: connection)
            return true
        }
    }

    /// "2 hours", "1 day", "3 days": the time to the next deadline, rounded to the hour.
    static func describe(_ seconds: TimeInterval) -> String {
        let hours = max(1, Int((seconds / 3600).rounded()))
        if hours < 48 { return hours == 1 ? "1 hour" : "\(hours) hours" }
        let days = Int((Double(hours) / 24).rounded())
        return "\(days) days"
    }
}

extension LifeSignalBackend {
    /// Texts to the server's number (``SMSReplies``).
    public var smsReplies: SMSReplies {
        SMSReplies(database: database, clock: clock, checkIns: checkIns, rules: configuration.deliveryRules)
    }
}
