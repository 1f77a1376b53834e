import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// Contacts through the same functions as on Supabase, called as Firebase callables;
    /// the request and reply shapes are the backend's own.
    public var contactsClient: ContactsClient {
        let adapters = self
        return ContactsClient(
            contacts: { try await adapters.contactList() },
            lookUpQRCode: { code in
                let reply: LookupQRCodeResponse = try await adapters.call("lookup-qr-code", QRCodeRequest(qrCodeId: code.uuidString.lowercased()))
                return QRCodeOwner(userID: try WireParse.userID(reply.userId), name: reply.name)
            },
            addByQRCode: { code, roles in
                let reply: ContactChangeResponse = try await adapters.call("add-contact-by-qr", AddContactByQRRequest(
                    qrCodeId: code.uuidString.lowercased(), isResponder: roles.isResponder, isDependent: roles.isDependent))
                return try ContactSummary(wire: reply.contact)
            },
            resetQRCode: { try await adapters.resetQRCode() },
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
                let sent: GetContactsResponse = try await adapters.call("get-contacts")
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

    func contactList() async throws -> ContactList {
        let reply: GetContactsResponse = try await call("get-contacts")
        return ContactList(
            contacts: try reply.contacts.map(ContactSummary.init(wire:)),
            sentInvitations: try reply.sentInvitations.map(InvitationSummary.init(wire:)),
            receivedInvitations: try reply.receivedInvitations.map(InvitationSummary.init(wire:)))
    }

    func resetQRCode() async throws -> UUID {
        let reply: ResetQRCodeResponse = try await call("reset-qr-code")
        return try WireParse.uuid(reply.qrCodeId)
    }

    /// The signed-in person's id, from the token's uid.
    func me() async throws -> UserID {
        guard let uid = await tokens.currentTokens?.localId else { throw DomainError.unauthenticated }
        guard let id = UserID(string: uid) else { throw DomainError.internal("The account id \"\(uid)\" is not a LifeSignal user id") }
        return id
    }
}
