import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// The signed-in person's contacts: responders who look out for them, dependents they look out
/// for, linked by scanning a QR code or by a phone invitation.
///
/// A link is always two-sided: if you are my responder I am your dependent, so every change
/// here is seen, mirrored, by the other person.
@DependencyClient
public struct ContactsClient: Sendable {
    /// My contacts and pending invitations both ways.
    public var contacts: @Sendable () async throws -> ContactList
    /// Who owns a scanned code, to confirm before adding; ``DomainError/notFound(_:)`` for an
    /// unknown code.
    public var lookUpQRCode: @Sendable (_ qrCodeID: UUID) async throws -> QRCodeOwner
    /// Links me with the code's owner, who holds `roles` for me.
    public var addByQRCode: @Sendable (_ qrCodeID: UUID, _ roles: ContactRoles) async throws -> ContactSummary
    /// Replaces my QR code (the old one stops working) and returns the new one.
    public var resetQRCode: @Sendable () async throws -> UUID
    public var updateRoles: @Sendable (_ contact: UserID, _ roles: ContactRoles) async throws -> ContactSummary
    /// Unlinks both sides.
    public var remove: @Sendable (_ contact: UserID) async throws -> Void
    /// Invites a phone number; the invitee will hold `roles` for me once they accept.
    public var invite: @Sendable (_ phone: PhoneNumber, _ roles: ContactRoles) async throws -> InvitationSummary
    public var acceptInvitation: @Sendable (_ invitationID: UUID) async throws -> ContactSummary
    public var declineInvitation: @Sendable (_ invitationID: UUID) async throws -> Void
    /// My contact list each time something in it changes, starting after the call: read
    /// ``contacts`` for the current value. A change is a contact added or removed, roles
    /// changed, an invitation sent, received or answered, a contact's check-in or deadline,
    /// or an alert or ping involving me; an element is delivered only when the list differs
    /// from the one before it.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<ContactList, any Error>
}

extension ContactsClient: TestDependencyKey {
    public static let testValue = ContactsClient()

    /// A person with one responder (Maya) and one dependent (Grandpa Joe, checked in 20 hours
    /// ago on a 24-hour interval), whose QR code anyone can scan once. The stream delivers the
    /// list after each of this value's own changes.
    public static var previewValue: ContactsClient {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let list = LockIsolated(ContactList(contacts: [
            ContactSummary(
                id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya Lopez",
                phone: "+15550100001", roles: .responder, addedAt: now.addingTimeInterval(-30 * 86400)),
            ContactSummary(
                id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a002") ?? UUID()), name: "Grandpa Joe",
                phone: "+15550100002", roles: .dependent, emergencyNote: "Takes heart medication at 8am",
                addedAt: now.addingTimeInterval(-60 * 86400), lastCheckIn: now.addingTimeInterval(-20 * 3600),
                deadline: now.addingTimeInterval(4 * 3600), checkInIntervalSeconds: 86400),
        ]))
        let qrCode = LockIsolated(UUID())
        let changes = AsyncThrowingStream<ContactList, any Error>.makeStream()
        /// Changes the list and tells the stream.
        @Sendable func save<T: Sendable>(_ change: @Sendable (inout ContactList) -> T) -> T {
            let (result, saved) = list.withValue { list in (change(&list), list) }
            changes.continuation.yield(saved)
            return result
        }
        @Sendable func find(_ id: UserID) throws -> Int {
            guard let index = list.value.contacts.firstIndex(where: { $0.id == id }) else { throw DomainError.notFound("Contact \(id)") }
            return index
        }
        return ContactsClient(
            contacts: { list.value },
            lookUpQRCode: { _ in QRCodeOwner(userID: UserID(UUID()), name: "Sam Rivera") },
            addByQRCode: { _, roles in
                let contact = ContactSummary(id: UserID(UUID()), name: "Sam Rivera", phone: "+15550100003", roles: roles, addedAt: now)
                save { $0.contacts.append(contact) }
                return contact
            },
            resetQRCode: {
                qrCode.setValue(UUID())
                return qrCode.value
            },
            updateRoles: { id, roles in
                let index = try find(id)
                return save {
                    $0.contacts[index].roles = roles
                    return $0.contacts[index]
                }
            },
            remove: { id in
                let index = try find(id)
                save { _ = $0.contacts.remove(at: index) }
            },
            invite: { phone, roles in
                let invitation = InvitationSummary(
                    id: UUID(), inviterID: UserID(UUID()), inviterName: "You", inviteePhone: phone.e164, roles: roles, status: .pending, sentAt: now)
                save { $0.sentInvitations.append(invitation) }
                return invitation
            },
            acceptInvitation: { id in throw DomainError.notFound("Invitation \(id)") },
            declineInvitation: { id in throw DomainError.notFound("Invitation \(id)") },
            stream: { changes.stream })
    }
}

extension DependencyValues {
    public var contactsClient: ContactsClient {
        get { self[ContactsClient.self] }
        set { self[ContactsClient.self] = newValue }
    }
}
