import Foundation
import LifeSignalDomain

/// Seed `000_…`'s ContactResponse (`id`, `name`, `phone`, `roles`, `status`) plus what the
/// Responders and Dependents screens need. Check-in and alert fields are set only for a
/// dependent; timestamps are ISO 8601.
public struct ContactResponse: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var phone: String
    public var roles: [String]
    public var status: String
    public var isResponder: Bool
    public var isDependent: Bool
    public var emergencyNote: String
    public var avatarUrl: String?
    public var addedAt: String
    public var notifyOnExpiry: Bool
    public var lastCheckInTime: String?
    public var checkInDeadline: String?
    public var checkInInterval: Int?
    public var isNonResponsive: Bool
    public var hasActiveAlert: Bool
    public var alertId: String?
    /// `sos` or `missed_check_in` while an incident is active.
    public var alertKind: String?
    public var alertActivatedAt: String?
    public var hasIncomingPing: Bool
    public var incomingPingTime: String?
    public var hasOutgoingPing: Bool
    public var outgoingPingTime: String?

    public init(_ contact: ContactSummary) {
        id = contact.id.description
        name = contact.name
        phone = contact.phone
        roles = contact.roles.names
        status = "active"
        isResponder = contact.roles.isResponder
        isDependent = contact.roles.isDependent
        emergencyNote = contact.emergencyNote
        avatarUrl = contact.avatarURL
        addedAt = Timestamp.format(contact.addedAt)
        notifyOnExpiry = contact.notifyOnExpiry
        lastCheckInTime = WireField.time(contact.lastCheckIn)
        checkInDeadline = WireField.time(contact.deadline)
        checkInInterval = contact.checkInIntervalSeconds
        isNonResponsive = contact.isNonResponsive
        hasActiveAlert = contact.activeAlertID != nil
        alertId = contact.activeAlertID.map { $0.uuidString.lowercased() }
        alertKind = contact.activeAlertID == nil ? nil : contact.activeAlertKind?.rawValue
        alertActivatedAt = WireField.time(contact.alertActivatedAt)
        hasIncomingPing = contact.incomingPingAt != nil
        incomingPingTime = WireField.time(contact.incomingPingAt)
        hasOutgoingPing = contact.outgoingPingAt != nil
        outgoingPingTime = WireField.time(contact.outgoingPingAt)
    }
}

/// A pending invitation; `roles` are those the invitee will hold for the inviter.
public struct InvitationResponse: Codable, Sendable, Hashable {
    public var id: String
    public var inviterId: String
    public var inviterName: String
    public var phone: String
    public var roles: [String]
    public var status: String
    public var sentAt: String

    public init(_ invitation: InvitationSummary) {
        id = invitation.id.uuidString.lowercased()
        inviterId = invitation.inviterID.description
        inviterName = invitation.inviterName
        phone = invitation.inviteePhone
        roles = invitation.roles.names
        status = invitation.status.rawValue
        sentAt = Timestamp.format(invitation.sentAt)
    }
}

/// Seed `000_…`'s GetContactsResponse, plus pending invitations and role requests both ways.
public struct GetContactsResponse: Codable, Sendable, Hashable {
    public var contacts: [ContactResponse]
    public var sentInvitations: [InvitationResponse]
    public var receivedInvitations: [InvitationResponse]
    public var roleRequests: RoleRequestsResponse

    public init(
        contacts: [ContactResponse], sentInvitations: [InvitationResponse], receivedInvitations: [InvitationResponse],
        roleRequests: RoleRequestsResponse
    ) {
        self.contacts = contacts
        self.sentInvitations = sentInvitations
        self.receivedInvitations = receivedInvitations
        self.roleRequests = roleRequests
    }

    /// A reply without `roleRequests` (a server from before role requests) reads as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contacts = try container.decode([ContactResponse].self, forKey: .contacts)
        sentInvitations = try container.decode([InvitationResponse].self, forKey: .sentInvitations)
        receivedInvitations = try container.decode([InvitationResponse].self, forKey: .receivedInvitations)
        roleRequests = try container.decodeIfPresent(RoleRequestsResponse.self, forKey: .roleRequests) ?? RoleRequestsResponse(received: [], sent: [])
    }
}
