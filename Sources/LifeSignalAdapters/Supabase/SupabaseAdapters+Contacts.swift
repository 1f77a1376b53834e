import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import SupabaseREST

extension SupabaseAdapters {
    /// Contacts through the contact functions of seed `001_…`, with the request and response
    /// shapes the backend defines for them (one definition for both ends of the wire).
    public var contactsClient: ContactsClient {
        let functions = client.functions
        let adapters = self
        return ContactsClient(
            contacts: {
                let reply: GetContactsResponse = try await Self.mapped { try await functions.invoke("get-contacts") }
                return ContactList(
                    contacts: try reply.contacts.map(ContactSummary.init(wire:)),
                    sentInvitations: try reply.sentInvitations.map(InvitationSummary.init(wire:)),
                    receivedInvitations: try reply.receivedInvitations.map(InvitationSummary.init(wire:)))
            },
            lookUpQRCode: { code in
                let reply: LookupQRCodeResponse = try await adapters.call("lookup-qr-code", QRCodeRequest(qrCodeId: code.uuidString.lowercased()))
                return QRCodeOwner(userID: try WireParse.userID(reply.userId), name: reply.name)
            },
            addByQRCode: { code, roles in
                let reply: ContactChangeResponse = try await adapters.call("add-contact-by-qr", AddContactByQRRequest(
                    qrCodeId: code.uuidString.lowercased(), isResponder: roles.isResponder, isDependent: roles.isDependent))
                return try ContactSummary(wire: reply.contact)
            },
            resetQRCode: {
                let reply: ResetQRCodeResponse = try await Self.mapped { try await functions.invoke("reset-qr-code") }
                return try WireParse.uuid(reply.qrCodeId)
            },
            updateRoles: { contact, roles in
                let reply: ContactChangeResponse = try await adapters.call("update-contact-roles", UpdateContactRolesRequest(
                    contactId: contact.description, isResponder: roles.isResponder, isDependent: roles.isDependent))
                return try ContactSummary(wire: reply.contact)
            },
            remove: { contact in
                let _: SuccessResponse = try await adapters.call("remove-contact", RemoveContactRequest(contactId: contact.description))
            },
            invite: { phone, roles in
                let reply: InviteContactResponse = try await adapters.call("invite-contact", InviteContactRequest(phone: phone.e164, roles: roles.names))
                let id = try WireParse.uuid(reply.invitationId)
                // The reply carries only the id; the list has the rest (the inviter's name).
                let sent: GetContactsResponse = try await Self.mapped { try await functions.invoke("get-contacts") }
                guard let invitation = sent.sentInvitations.first(where: { $0.id == reply.invitationId }) else {
                    throw DomainError.internal("Invitation \(id) is missing from the sent invitations")
                }
                return try InvitationSummary(wire: invitation)
            },
            acceptInvitation: { id in
                let reply: AcceptInvitationResponse = try await adapters.call("accept-invitation", InvitationRequest(invitationId: id.uuidString.lowercased()))
                return try ContactSummary(wire: reply.contact)
            },
            declineInvitation: { id in
                let _: SuccessResponse = try await adapters.call("decline-invitation", InvitationRequest(invitationId: id.uuidString.lowercased()))
            })
    }
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
