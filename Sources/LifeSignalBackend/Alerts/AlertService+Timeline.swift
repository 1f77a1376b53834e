import Foundation
import LifeSignalDomain

extension AlertService {
    /// Every delivery step of `alertID` to its responders, oldest first: for the person whose
    /// alert it is and for their responders, who see who was tried and how, never an address.
    public func timeline(caller: Caller, alertID: UUID) async throws -> [AlertTimelineStep] {
        let me = try caller.requireUser()
        return try await database.transaction { connection in
            guard let alert = try await connection.first("SELECT user_id FROM alerts WHERE id = \(alertID)") else {
                throw DomainError.notFound("Alert \(alertID)")
            }
            let owner = UserID(try alert.uuid("user_id"))
            if owner != me, try await ContactPairs.roles(of: owner, for: me, in: connection)?.isDependent != true {
                throw DomainError.forbidden("Only a responder of this person may see their alerts")
            }
            return try await connection.query(
                """
                SELECT d.created_at, d.next_attempt_at, d.sent_at, d.status, d.channel, u.first_name, u.last_name, u.phone
                FROM deliveries d JOIN users u ON u.id = d.user_id
                WHERE d.alert_id = \(alertID) AND d.user_id <> \(owner)
                ORDER BY coalesce(d.sent_at, d.next_attempt_at), d.channel
                """
            ).compactMap { row in
                guard let channel = DeliveryChannel(rawValue: try row.string("channel")) else { return nil }
                let status = try row.string("status")
                let at = try row.optionalDate("sent_at") ?? (status == "held" ? row.date("next_attempt_at") : row.date("created_at"))
                return AlertTimelineStep(at: at, recipient: PersonName.inMessage(row), channel: channel, status: status)
            }
        }
    }
}
