import Foundation
import LifeSignalDomain

/// One-tap check-in from a reminder (`/c/<token>`): the link is bound to the person and the
/// deadline the reminder was about, and checks them in only while that is still their deadline.
/// Once they have checked in (by any means) the deadline moves on and the link says so instead;
/// no sign-in is needed, since the link was sent only to them.
extension CheckInService {
    /// What a check-in link's page shows.
    public enum LinkState: Sendable, Hashable {
        /// The deadline the link names is still the person's: the button checks them in (with
        /// their PIN, when they have one).
        case due(firstName: String, deadline: Date, needsPIN: Bool)
        /// They have checked in since the reminder: the link has done its work.
        case alreadyCheckedIn(firstName: String, lastCheckIn: Date?, deadline: Date?)
    }

    /// The page's state, or `nil` when the person no longer exists.
    public func linkState(for link: CheckInLink) async throws -> LinkState? {
        let row = try await database.query(
            """
            SELECT first_name, check_in_deadline, last_check_in_at,
                EXISTS (SELECT 1 FROM lifesignal_check_in_pins WHERE user_id = \(link.user)) AS needs_pin
            FROM users WHERE id = \(link.user)
            """
        ).first
        guard let row else { return nil }
        return Self.state(of: row, for: link)
    }

    /// Checks the link's person in if its deadline is still theirs; answers the state after.
    /// The PIN is checked first (``CheckInPINs``), even when the deadline has moved on, so the
    /// page cannot be used to learn anything without it; a duress PIN answers as the PIN does.
    public func checkIn(by link: CheckInLink, pin: String? = nil) async throws -> LinkState? {
        let duress = try await pins.verify(link.user, pin: pin) == .duress
        let now = clock.now()
        let (state, outbox): (LinkState?, Outbox) = try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    "SELECT first_name, check_in_deadline, last_check_in_at FROM users WHERE id = \(link.user)" + connection.forUpdate)
            else { return (nil, Outbox()) }
            guard case .due(let name, _, _) = Self.state(of: row, for: link) else { return (Self.state(of: row, for: link), Outbox()) }
            do {
                let (result, outbox) = try await Self.record(link.user, source: .manual, now: now, duress: duress, in: connection)
                return (.alreadyCheckedIn(firstName: name, lastCheckIn: result.checkedInAt, deadline: result.deadline), outbox)
            } catch DomainError.checkInTooSoon {
                return (.alreadyCheckedIn(firstName: name, lastCheckIn: row.optionalDate("last_check_in_at"), deadline: link.deadline), Outbox())
            }
        }
        await notifier.deliver(outbox)
        return state
    }

    private static func state(of row: SQLRow, for link: CheckInLink) -> LinkState {
        let name = row.optionalString("first_name") ?? ""
        let deadline = row.optionalDate("check_in_deadline")
        // Links carry whole seconds; the stored deadline may have a fraction.
        if let deadline, Int64(deadline.timeIntervalSince1970.rounded(.down)) == Int64(link.deadline.timeIntervalSince1970) {
            return .due(firstName: name, deadline: deadline, needsPIN: (try? row.bool("needs_pin")) ?? false)
        }
        return .alreadyCheckedIn(firstName: name, lastCheckIn: row.optionalDate("last_check_in_at"), deadline: deadline)
    }
}
