import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension LocalAdapters {
    /// Contacts on the embedded backend, acting as the signed-in person.
    public var contactsClient: ContactsClient {
        let contacts = backend.contacts
        return ContactsClient(
            contacts: { try await contacts.contacts(caller: try await caller()) },
            lookUpQRCode: { try await contacts.lookUpQRCode(caller: try await caller(), qrCodeID: $0) },
            addByQRCode: { try await contacts.addContact(caller: try await caller(), qrCodeID: $0, roles: $1) },
            resetQRCode: { try await contacts.resetQRCode(caller: try await caller()) },
            updateRoles: { try await contacts.updateRoles(caller: try await caller(), contact: $0, roles: $1) },
            remove: { try await contacts.removeContact(caller: try await caller(), contact: $0) },
            invite: { try await contacts.invite(caller: try await caller(), phone: $0.e164, roles: $1) },
            acceptInvitation: { try await contacts.acceptInvitation(caller: try await caller(), invitationID: $0) },
            declineInvitation: { try await contacts.declineInvitation(caller: try await caller(), invitationID: $0) })
    }
}
