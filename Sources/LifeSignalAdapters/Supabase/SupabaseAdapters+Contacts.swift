import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import SupabaseREST

extension SupabaseAdapters {
    /// Contacts through the contact functions of seed `001_…` (``FunctionCalling``).
    public var contactsClient: ContactsClient { functionContactsClient }
}

extension ContactSummary {
    init(wire: ContactResponse) throws {
        self.init(
            id: try WireParse.userID(wire.id), name: wire.name, phone: wire.phone,
            roles: try ContactRoles(isResponder: wire.isResponder, isDependent: wire.isDependent),
            emergencyNote: wire.emergencyNote, avatarURL: wire.avatarUrl, addedAt: try WireParse.date(wire.addedAt),
            notifyOnExpiry: wire.notifyOnExpiry, lastCheckIn: try WireParse.date(wire.lastCheckInTime),
            deadline: try WireParse.date(wire.checkInDeadline), checkInIntervalSeconds: wire.checkInInterval,
            isNonResponsive: wire.isNonResponsive, activeAlertID: try wire.alertId.map(WireParse.uuid),
            alertActivatedAt: try WireParse.date(wire.alertActivatedAt), incomingPingAt: try WireParse.date(wire.incomingPingTime),
            outgoingPingAt: try WireParse.date(wire.outgoingPingTime))
    }
}

extension InvitationSummary {
    init(wire: InvitationResponse) throws {
        guard let status = InvitationStatus(rawValue: wire.status) else {
            throw DomainError.internal("The server sent the invitation status \"\(wire.status)\"")
        }
        self.init(
            id: try WireParse.uuid(wire.id), inviterID: try WireParse.userID(wire.inviterId), inviterName: wire.inviterName,
            inviteePhone: wire.phone, roles: try ContactRoles(names: wire.roles), status: status, sentAt: try WireParse.date(wire.sentAt))
    }
}

extension SupabaseAdapters: FunctionCalling {
    /// The signed-in person, from the stored session.
    func me() async throws -> UserID {
        let client = self.client
        return try await Self.mapped { UserID(try await client.auth.session.user.id) }
    }
}
