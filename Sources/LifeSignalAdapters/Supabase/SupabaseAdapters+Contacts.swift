import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// Contacts through the contact functions of seed `001_…` (``FunctionCalling``); the
    /// stream follows Realtime (``contactListChanges()``).
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
            outgoingPingAt: try WireParse.date(wire.outgoingPingTime), activeAlertKind: wire.alertKind.flatMap(AlertKind.init(rawValue:)))
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

    /// The list read again through `get-contacts` after each Realtime change of a table it is
    /// made of. The tables are followed unfiltered, since "involving me" spans columns (a
    /// ping's sender or recipient, a contact's own row): the server sends only rows my
    /// policies let me read — my relations, sent invitations, role requests either way, pings,
    /// my dependents' check-ins and alerts. A contact's `users` row is not mine to read (docs/security.md),
    /// so a change of a contact's name or photo shows at the next re-read. My notifications tell
    /// of what no readable row shows (an invitation to my number, a contact's account deleted).
    func contactListChanges() async throws -> AsyncThrowingStream<ContactList, any Error> {
        let adapters = self
        return try await followed(
            "contacts", tables: ["contacts", "contact_invitations", "contact_role_requests", "check_ins", "alerts", "pings"],
            mine: ["notifications": "user_id"], from: { try await adapters.contactList() })
    }
}
