import Foundation
import LifeSignalDomain

extension BackendFunctions {
    static let contactFunctions: [String: Handler] = roleRequestFunctions.merging([
        "lookup-qr-code": { backend, caller, body in
            let request = try decode(QRCodeRequest.self, from: body)
            let owner = try await backend.contacts.lookUpQRCode(caller: caller, qrCodeID: try uuid(request.qrCodeId, field: "qrCodeId"))
            return try encode(LookupQRCodeResponse(success: true, userId: owner.userID.description, name: owner.name))
        },
        "get-qr-code": { backend, caller, _ in
            try encode(QRCodeResponse(try await backend.contacts.qrCode(caller: caller)))
        },
        "reset-qr-code": { backend, caller, _ in
            try encode(QRCodeResponse(try await backend.contacts.newQRCode(caller: caller)))
        },
        "add-contact-by-qr": { backend, caller, body in
            let request = try decode(AddContactByQRRequest.self, from: body)
            let qr = try uuid(request.qrCodeId, field: "qrCodeId")
            let roles = try ContactRoles(isResponder: request.isResponder, isDependent: request.isDependent)
            let contact = try await backend.contacts.addContact(caller: caller, qrCodeID: qr, roles: roles)
            return try encode(ContactChangeResponse(success: true, contactId: contact.id.description, contact: ContactResponse(contact)))
        },
        "update-contact-roles": { backend, caller, body in
            let request = try decode(UpdateContactRolesRequest.self, from: body)
            let id = try userID(request.contactId, field: "contactId")
            let roles = try ContactRoles(isResponder: request.isResponder, isDependent: request.isDependent)
            return try encode(RoleChangeResponse(try await backend.contacts.changeRoles(caller: caller, contact: id, roles: roles)))
        },
        "remove-contact": { backend, caller, body in
            let request = try decode(RemoveContactRequest.self, from: body)
            try await backend.contacts.removeContact(caller: caller, contact: try userID(request.contactId, field: "contactId"))
            return try encode(SuccessResponse())
        },
        "get-contacts": { backend, caller, _ in
            let list = try await backend.contacts.contacts(caller: caller)
            return try encode(GetContactsResponse(
                contacts: list.contacts.map(ContactResponse.init), sentInvitations: list.sentInvitations.map(InvitationResponse.init),
                receivedInvitations: list.receivedInvitations.map(InvitationResponse.init),
                roleRequests: RoleRequestsResponse(
                    received: list.receivedRoleRequests.map(RoleRequestResponse.init), sent: list.sentRoleRequests.map(RoleRequestResponse.init))))
        },
        "invite-contact": { backend, caller, body in
            let request = try decode(InviteContactRequest.self, from: body)
            let roles = try ContactRoles(names: request.roles)
            let invitation = try await backend.contacts.invite(caller: caller, phone: request.phone, roles: roles)
            return try encode(InviteContactResponse(
                success: true, invitationId: invitation.id.uuidString.lowercased(), sentAt: Timestamp.format(invitation.sentAt)))
        },
        "accept-invitation": { backend, caller, body in
            let request = try decode(InvitationRequest.self, from: body)
            let contact = try await backend.contacts.acceptInvitation(
                caller: caller, invitationID: try uuid(request.invitationId, field: "invitationId"))
            return try encode(AcceptInvitationResponse(success: true, contact: ContactResponse(contact)))
        },
        "decline-invitation": { backend, caller, body in
            let request = try decode(InvitationRequest.self, from: body)
            try await backend.contacts.declineInvitation(caller: caller, invitationID: try uuid(request.invitationId, field: "invitationId"))
            return try encode(SuccessResponse())
        },
    ]) { first, _ in first }
}

public struct QRCodeRequest: Codable, Sendable {
    public var qrCodeId: String
    public init(qrCodeId: String) { self.qrCodeId = qrCodeId }
}
public struct LookupQRCodeResponse: Codable, Sendable, Hashable { public var success: Bool; public var userId: String; public var name: String }

/// `add-contact-by-qr`: the scanned code and the roles its owner will hold for me.
public struct AddContactByQRRequest: Codable, Sendable {
    public var qrCodeId: String
    public var isResponder: Bool
    public var isDependent: Bool

    public init(qrCodeId: String, isResponder: Bool, isDependent: Bool) {
        self.qrCodeId = qrCodeId
        self.isResponder = isResponder
        self.isDependent = isDependent
    }
}

public struct UpdateContactRolesRequest: Codable, Sendable {
    public var contactId: String
    public var isResponder: Bool
    public var isDependent: Bool

    public init(contactId: String, isResponder: Bool, isDependent: Bool) {
        self.contactId = contactId
        self.isResponder = isResponder
        self.isDependent = isDependent
    }
}

public struct RemoveContactRequest: Codable, Sendable {
    public var contactId: String
    public init(contactId: String) { self.contactId = contactId }
}

/// Reply of `add-contact-by-qr` (`update-contact-roles` answers ``RoleChangeResponse``, the same plus
/// `pendingRequest`).
public struct ContactChangeResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var contactId: String
    public var contact: ContactResponse
}

/// Seed `000_…`'s InviteContactRequest: roles are those the invitee will hold for me.
public struct InviteContactRequest: Codable, Sendable {
    public var phone: String
    public var roles: [String]

    public init(phone: String, roles: [String]) {
        self.phone = phone
        self.roles = roles
    }
}

public struct InviteContactResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var invitationId: String
    public var sentAt: String
}

public struct InvitationRequest: Codable, Sendable {
    public var invitationId: String
    public init(invitationId: String) { self.invitationId = invitationId }
}

public struct AcceptInvitationResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var contact: ContactResponse
}
