import Foundation
import LifeSignalDomain

/// Phone calls the ledger placed (channel `voice`): what each call says, what a key pressed on
/// it does, and how its end is recorded. The server turns these into TwiML; every request
/// here comes from Twilio's signed webhooks, and a call is named by its ledger row, so only the
/// call placed for a row can act for that row's recipient.
///
/// - A call to a **responder** (an SOS, a missed check-in) reads the message and offers
///   "Press 1 if you will check on them" (``AlertService/respond(caller:alertID:)``, the same
///   "I'm on it" as the app and the link) and "Press 2 to hear it again".
/// - A call to the **person** at their deadline ("call me first") offers "Press 1 if you're OK",
///   then asks for their check-in PIN when they have one; a duress PIN answers as the PIN does.
/// - A call **counts** only when a key was pressed on it: the row is `delivered` then. A call
///   that ends otherwise (no answer, busy, a voicemail, a person who hung up) is `failed`, so
///   it never passes for an answer.
public struct VoiceCalls: Sendable {
    let database: any Database
    let clock: BackendClock
    let alerts: AlertService
    let checkIns: CheckInService

    /// What a call says when it is answered.
    public enum Script: Sendable, Equatable {
        /// To a responder: the message, then the menu.
        case responder(message: String)
        /// To the person at their deadline: "Press 1 if you're OK".
        case checkIn(firstName: String)
        /// A test alert: the message, then "Press 1 to confirm".
        case test(message: String)
        /// A person calling the server's number from their verified phone: "Press 1 to check in".
        case callIn(firstName: String)
        /// Nothing to ask any more (the alert ended, the person checked in, the row is not a
        /// call): these words, then goodbye.
        case over(String)
    }

    /// What a key pressed (or a PIN keyed) leads to.
    public enum Answer: Sendable, Equatable {
        /// Done: these words, then goodbye.
        case done(String)
        /// The person has a PIN: ask for it.
        case askPIN
        /// Say the menu again.
        case again
    }

    public func script(for delivery: UUID) async throws -> Script {
        guard let call = try await Self.call(delivery, in: database) else { return .over("This call is no longer needed.") }
        if call.kind == .nonResponsiveSelf {
            guard let person = try await database.query("SELECT first_name, check_in_deadline FROM users WHERE id = \(call.recipient)").first
            else { return .over("This call is no longer needed.") }
            if let deadline = person.optionalDate("check_in_deadline"), deadline > clock.now() {
                return .over("You are already checked in. Thank you.")
            }
            return .checkIn(firstName: person.optionalString("first_name") ?? "")
        }
        if call.kind == .testAlert { return .test(message: call.body) }
        if let alert = call.alert, try await !isActive(alert) { return .over("This alert has ended. Thank you.") }
        // The body names the person and what happened; the title would say it twice.
        return .responder(message: call.body)
    }

    /// `digits` keyed on the menu of `delivery`'s call.
    public func pressed(_ digits: String, on delivery: UUID) async throws -> Answer {
        guard let call = try await Self.call(delivery, in: database) else { return .done("This call is no longer needed.") }
        guard digits.first == "1" else { return .again }
        if call.kind == .testAlert {
            let name = try await alerts.tests.confirm(call.notification, how: "call")
            try await markAnswered(delivery)
            return .done("Thank you. \(name ?? "They") will see that you can be reached by phone.")
        }
        if call.kind == .nonResponsiveSelf {
            let needsPIN = try await database.query("SELECT 1 AS present FROM lifesignal_check_in_pins WHERE user_id = \(call.recipient)").first != nil
            return needsPIN ? .askPIN : try await checkIn(call.recipient, pin: nil, call: call.id)
        }
        guard let alert = call.alert else { return .done("Thank you.") }
        do {
            _ = try await alerts.respond(caller: .user(call.recipient), alertID: alert)
        } catch DomainError.alreadyExists {
            // Said before, by app, link or an earlier call: it stands.
        } catch DomainError.notFound {
            return .done("This alert has ended. Thank you.")
        }
        try await markAnswered(delivery)
        return .done("Thank you. They have been told you are on it. Please check on them now.")
    }

    /// The PIN keyed after "Press 1" on the person's call.
    public func keyedPIN(_ pin: String, on delivery: UUID) async throws -> Answer {
        guard let call = try await Self.call(delivery, in: database), call.kind == .nonResponsiveSelf else {
            return .done("This call is no longer needed.")
        }
        return try await checkIn(call.recipient, pin: pin, call: call.id)
    }

    /// Records how the call of `delivery` ended (Twilio's `CallStatus`, and `AnsweredBy` when
    /// a machine took it). A call a key was pressed on stays delivered.
    public func ended(_ delivery: UUID, status: String, answeredBy: String?) async throws {
        guard ["completed", "busy", "no-answer", "failed", "canceled"].contains(status) else { return }
        let reason: String =
            if answeredBy?.hasPrefix("machine") == true || answeredBy == "fax" {
                "a machine answered the call"
            } else if status == "completed" {
                "the call was answered but no key was pressed"
            } else {
                "the call ended: \(status)"
            }
        let now = clock.now()
        try await database.transaction { connection in
            let failed = try await connection.query(
                """
                UPDATE deliveries SET status = 'failed', last_error = \(reason), updated_at = \(now)
                WHERE id = \(delivery) AND channel = 'voice' AND status IN ('sending', 'sent') RETURNING id
                """)
            // Nobody answered: a responder's fallback order moves on now.
            if !failed.isEmpty { try await DeliveryFallback.releaseNext(after: delivery, now: now, in: connection) }
        }
    }

    /// Checks `person` in with `pin`; the call the ledger placed (if it was one) counts as answered.
    func checkIn(_ person: UserID, pin: String?, call: UUID? = nil) async throws -> Answer {
        do {
            _ = try await checkIns.checkIn(caller: .user(person), pin: pin)
        } catch DomainError.checkInTooSoon {
            // Checked in a moment ago: that counts.
        } catch DomainError.forbidden {
            return .done("That is not your PIN. You are not checked in. Please check in another way.")
        } catch DomainError.rateLimited {
            return .done("Too many wrong PINs. You are not checked in. Please check in another way.")
        }
        if let call { try await markAnswered(call) }
        return .done("Thank you. You are checked in.")
    }

    private func markAnswered(_ delivery: UUID) async throws {
        let now = clock.now()
        try await database.query(
            "UPDATE deliveries SET status = 'delivered', updated_at = \(now) WHERE id = \(delivery) AND channel = 'voice' AND status IN ('sending', 'sent')")
    }

    private func isActive(_ alert: UUID) async throws -> Bool {
        try await database.query("SELECT 1 AS present FROM alerts WHERE id = \(alert) AND status = 'active'").first != nil
    }

    struct Call {
        var id: UUID
        var notification: UUID
        var recipient: UserID
        var kind: NotificationType
        var title: String
        var body: String
        var alert: UUID?
    }

    static func call(_ delivery: UUID, in database: any Database) async throws -> Call? {
        guard
            let row = try await database.query(
                "SELECT notification_id, user_id, kind, title, body, alert_id FROM deliveries WHERE id = \(delivery) AND channel = 'voice'"
            ).first,
            let recipient = row.optionalUUID("user_id"), let kind = NotificationType(rawValue: try row.string("kind"))
        else { return nil }
        return Call(
            id: delivery, notification: try row.uuid("notification_id"), recipient: UserID(recipient), kind: kind, title: try row.string("title"),
            body: try row.string("body"),
            alert: row.optionalUUID("alert_id"))
    }
}

extension LifeSignalBackend {
    /// Phone calls' scripts and keys (``VoiceCalls``).
    public var calls: VoiceCalls { VoiceCalls(database: database, clock: clock, alerts: alerts, checkIns: checkIns) }
}
