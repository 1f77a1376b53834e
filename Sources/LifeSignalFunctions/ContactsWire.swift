import Foundation
import LifeSignalDomain

public struct QRCodeRequest: Codable, Sendable {
    public var qrCodeId: String
    public init(qrCodeId: String) { self.qrCodeId = qrCodeId }
}

public struct LookupQRCodeResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var userId: String
    public var name: String
    public init(success: Bool, userId: String, name: String) {
        self.success = success
        self.userId = userId
        self.name = name
    }
}

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

    public init(success: Bool, contactId: String, contact: ContactResponse) {
        self.success = success
        self.contactId = contactId
        self.contact = contact
    }
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
    /// The whole invitation as the contact list shows it, so the client adds it without
    /// reloading the list; absent from servers before it was added.
    public var invitation: InvitationResponse?

    public init(_ invitation: InvitationSummary) {
        success = true
        invitationId = invitation.id.uuidString.lowercased()
        sentAt = Timestamp.format(invitation.sentAt)
        self.invitation = InvitationResponse(invitation)
    }
}

public struct InvitationRequest: Codable, Sendable {
    public var invitationId: String
    public init(invitationId: String) { self.invitationId = invitationId }
}

public struct AcceptInvitationResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var contact: ContactResponse

    public init(success: Bool, contact: ContactResponse) {
        self.success = success
        self.contact = contact
    }
}
