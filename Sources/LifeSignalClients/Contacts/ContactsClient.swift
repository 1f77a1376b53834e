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
    /// My QR code as my screen shows it: the current one, or a fresh one when none is valid.
    /// A code is short-lived and links one person (docs/security.md), so the screen asks again
    /// once `expiresAt` has passed and after someone scanned it.
    public var qrCode: @Sendable () async throws -> QRCode
    /// Replaces my QR code (the old one stops working) and returns the new one.
    public var resetQRCode: @Sendable () async throws -> QRCode
    /// Asks for `roles` to be what `contact` is to me. Dropping a role and making them my
    /// responder happen at once; becoming *their* responder (`isDependent`) opens their
    /// check-ins and alerts to me, so it waits for their consent as the outcome's
    /// `pendingRequest`.
    public var updateRoles: @Sendable (_ contact: UserID, _ roles: ContactRoles) async throws -> RoleChangeOutcome
    /// Unlinks both sides.
    public var remove: @Sendable (_ contact: UserID) async throws -> Void
    /// Invites a phone number; the invitee will hold `roles` for me once they accept.
    public var invite: @Sendable (_ phone: PhoneNumber, _ roles: ContactRoles) async throws -> InvitationSummary
    public var acceptInvitation: @Sendable (_ invitationID: UUID) async throws -> ContactSummary
    public var declineInvitation: @Sendable (_ invitationID: UUID) async throws -> Void
    /// Lets the requester of a received role request become my responder; returns them as
    /// my contact, with the new roles.
    public var acceptRoleRequest: @Sendable (_ requestID: UUID) async throws -> ContactSummary
    /// Turns a received role request down; the requester is told.
    public var declineRoleRequest: @Sendable (_ requestID: UUID) async throws -> Void
    /// Withdraws a role request I sent.
    public var cancelRoleRequest: @Sendable (_ requestID: UUID) async throws -> Void
    /// My contact list each time something in it changes, starting after the call: read
    /// ``contacts`` for the current value. A change is a contact added or removed, roles
    /// changed, an invitation or role request sent, received or answered, a contact's
    /// check-in or deadline, or an alert or ping involving me; an element is delivered only
    /// when the list differs from the one before it.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<ContactList, any Error>
}

extension ContactsClient: TestDependencyKey {
    public static let testValue = ContactsClient()

    /// A person with one responder (Maya) and one dependent (Grandpa Joe, checked in 20 hours
    /// ago on a 24-hour interval, who asks to become their responder too), and a QR code valid
    /// for 10 minutes that anyone can scan once. Becoming a contact's responder waits for their
    /// consent, as on the server: it adds a sent role request. The stream delivers the list
    /// after each of this value's own changes.
    public static var previewValue: ContactsClient {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a000") ?? UUID())
        let joe = ContactSummary(
            id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a002") ?? UUID()), name: "Grandpa Joe",
            phone: "+15550100002", roles: .dependent, emergencyNote: "Takes heart medication at 8am",
            addedAt: now.addingTimeInterval(-60 * 86400), lastCheckIn: now.addingTimeInterval(-20 * 3600),
            deadline: now.addingTimeInterval(4 * 3600), checkInIntervalSeconds: 86400)
        let list = LockIsolated(
            ContactList(
                contacts: [
                    ContactSummary(
                        id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya Lopez",
                        phone: "+15550100001", roles: .responder, addedAt: now.addingTimeInterval(-30 * 86400)),
                    joe,
                ],
                receivedRoleRequests: [
                    RoleRequest(
                        id: UUID(uuidString: "00000000-0000-4000-8000-00000000b001") ?? UUID(), requesterID: joe.id,
                        requesterName: joe.name, ownerID: me, ownerName: "You", createdAt: now.addingTimeInterval(-3600))
                ]))
        @Sendable func freshCode() -> QRCode { QRCode(id: UUID(), expiresAt: now.addingTimeInterval(600)) }
        let qrCode = LockIsolated(freshCode())
        let changes = AsyncThrowingStream<ContactList, any Error>.makeStream()
        /// Changes the list and tells the stream.
        @Sendable func save<T: Sendable>(_ change: @Sendable (inout ContactList) throws -> T) throws -> T {
            let (result, saved) = try list.withValue { list in (try change(&list), list) }
            changes.continuation.yield(saved)
            return result
        }
        @Sendable func find(_ id: UserID, in list: ContactList) throws -> Int {
            guard let index = list.contacts.firstIndex(where: { $0.id == id }) else { throw DomainError.notFound("Contact \(id)") }
            return index
        }
        @Sendable func received(_ id: UUID, in list: ContactList) throws -> Int {
            guard let index = list.receivedRoleRequests.firstIndex(where: { $0.id == id }) else { throw DomainError.notFound("Role request") }
            return index
        }
        return ContactsClient(
            contacts: { list.value },
            lookUpQRCode: { _ in QRCodeOwner(userID: UserID(UUID()), name: "Sam Rivera") },
            addByQRCode: { _, roles in
                let contact = ContactSummary(id: UserID(UUID()), name: "Sam Rivera", phone: "+15550100003", roles: roles, addedAt: now)
                return try save {
                    $0.contacts.append(contact)
                    return contact
                }
            },
            qrCode: { qrCode.value },
            resetQRCode: {
                qrCode.setValue(freshCode())
                return qrCode.value
            },
            updateRoles: { id, roles in
                try save { list in
                    let index = try find(id, in: list)
                    let before = list.contacts[index].roles
                    guard roles.isDependent, !before.isDependent else {
                        list.contacts[index].roles = roles
                        // No longer asking to become their responder withdraws the request.
                        if !roles.isDependent { list.sentRoleRequests.removeAll { $0.ownerID == id } }
                        return RoleChangeOutcome(contact: list.contacts[index])
                    }
                    // Becoming their responder waits for them; the rest applies now, and must
                    // leave a role (removing is `remove`), as on the server.
                    guard let applied = try? ContactRoles(isResponder: roles.isResponder, isDependent: false) else {
                        throw DomainError.failedPrecondition("Keep a role while your request waits, or remove the contact")
                    }
                    list.contacts[index].roles = applied
                    let contact = list.contacts[index]
                    if let asked = list.sentRoleRequests.first(where: { $0.ownerID == id }) {
                        return RoleChangeOutcome(contact: contact, pendingRequest: asked)
                    }
                    let request = RoleRequest(id: UUID(), requesterID: me, requesterName: "You", ownerID: id, ownerName: contact.name, createdAt: now)
                    list.sentRoleRequests.append(request)
                    return RoleChangeOutcome(contact: contact, pendingRequest: request)
                }
            },
            remove: { id in
                try save { list in
                    list.contacts.remove(at: try find(id, in: list))
                    list.sentRoleRequests.removeAll { $0.ownerID == id }
                    list.receivedRoleRequests.removeAll { $0.requesterID == id }
                }
            },
            invite: { phone, roles in
                let invitation = InvitationSummary(
                    id: UUID(), inviterID: me, inviterName: "You", inviteePhone: phone.e164, roles: roles, status: .pending, sentAt: now)
                return try save {
                    $0.sentInvitations.append(invitation)
                    return invitation
                }
            },
            acceptInvitation: { id in throw DomainError.notFound("Invitation \(id)") },
            declineInvitation: { id in throw DomainError.notFound("Invitation \(id)") },
            acceptRoleRequest: { id in
                try save { list in
                    let request = list.receivedRoleRequests.remove(at: try received(id, in: list))
                    let index = try find(request.requesterID, in: list)
                    list.contacts[index].roles = try ContactRoles(isResponder: true, isDependent: list.contacts[index].roles.isDependent)
                    return list.contacts[index]
                }
            },
            declineRoleRequest: { id in
                try save { list in _ = list.receivedRoleRequests.remove(at: try received(id, in: list)) }
            },
            cancelRoleRequest: { id in
                try save { list in
                    guard let index = list.sentRoleRequests.firstIndex(where: { $0.id == id }) else { throw DomainError.notFound("Role request") }
                    list.sentRoleRequests.remove(at: index)
                }
            },
            stream: { changes.stream })
    }
}

extension DependencyValues {
    public var contactsClient: ContactsClient {
        get { self[ContactsClient.self] }
        set { self[ContactsClient.self] = newValue }
    }
}
