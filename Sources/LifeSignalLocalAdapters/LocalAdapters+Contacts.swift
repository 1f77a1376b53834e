import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Contacts on the embedded backend, acting as the signed-in person; the stream follows
    /// the backend's change feed and reads the list again after each change that concerns it.
    public var contactsClient: ContactsClient {
        let contacts = backend.contacts
        let changes = backend.changes
        return ContactsClient(
            contacts: { try await contacts.contacts(caller: try await caller()) },
            lookUpQRCode: { try await contacts.lookUpQRCode(caller: try await caller(), qrCodeID: $0) },
            addByQRCode: { try await contacts.addContact(caller: try await caller(), qrCodeID: $0, roles: $1) },
            qrCode: { try await contacts.qrCode(caller: try await caller()) },
            resetQRCode: { try await contacts.newQRCode(caller: try await caller()) },
            updateRoles: { try await contacts.changeRoles(caller: try await caller(), contact: $0, roles: $1) },
            remove: { try await contacts.removeContact(caller: try await caller(), contact: $0) },
            invite: { try await contacts.invite(caller: try await caller(), phone: $0.e164, roles: $1) },
            acceptInvitation: { try await contacts.acceptInvitation(caller: try await caller(), invitationID: $0) },
            declineInvitation: { try await contacts.declineInvitation(caller: try await caller(), invitationID: $0) },
            acceptRoleRequest: { try await contacts.acceptRoleRequest(caller: try await caller(), requestID: $0) },
            declineRoleRequest: { try await contacts.declineRoleRequest(caller: try await caller(), requestID: $0) },
            cancelRoleRequest: { try await contacts.cancelRoleRequest(caller: try await caller(), requestID: $0) },
            stream: {
                let caller = try await caller()
                let me = try caller.requireUser()
                // Subscribed before the first read, so nothing committed after this is missed;
                // every person's changes, since a contact's check-in is published as theirs.
                let events = changes.subscribe()
                let start = try await contacts.contacts(caller: caller)
                return Rereading.stream(following: events, from: start) { event, last in
                    guard Self.concernsContactList(event, of: me, showing: last) else { return nil }
                    return try await contacts.contacts(caller: caller)
                }
            })
    }

    /// Whether a change can alter `me`'s contact list: my own relations, sent invitations,
    /// role requests either way, pings and notifications (an invitation received or a
    /// contact's account deleted is told by one), and my contacts' profiles (check-in,
    /// deadline) and alerts.
    static func concernsContactList(_ event: ChangeEvent, of me: UserID, showing list: ContactList) -> Bool {
        switch event.table {
        case "contacts", "contact_invitations", "contact_role_requests", "pings", "notifications":
            // A role request is published to both of its people.
            event.ownerID == me
        case "users", "alerts":
            list.contacts.contains { $0.id == event.ownerID }
        default:
            false
        }
    }
}
