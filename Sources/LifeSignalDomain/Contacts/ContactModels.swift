import Foundation

/// A contact as the Responders and Dependents screens need it: who they are, what they are to
/// me, and — for a dependent — where their check-in stands.
public struct ContactSummary: Sendable, Hashable, Identifiable {
    /// The contact's user id: what `remove-contact`, `update-contact-roles` and the ping
    /// functions take.
    public var id: UserID
    public var name: String
    public var phone: String
    public var roles: ContactRoles
    public var emergencyNote: String
    public var avatarURL: String?
    public var addedAt: Date
    /// Whether I am told when this dependent misses a check-in.
    public var notifyOnExpiry: Bool
    /// Check-in state, only for a dependent (what a responder is entitled to see).
    public var lastCheckIn: Date?
    public var deadline: Date?
    public var checkInIntervalSeconds: Int?
    public var isNonResponsive: Bool
    public var activeAlertID: UUID?
    /// What the active incident is: an SOS, or a missed check-in the sweep escalated (`nil`
    /// from a server that does not say, which only ever had SOS alerts).
    public var activeAlertKind: AlertKind?
    public var alertActivatedAt: Date?
    /// A pending ping from this contact to me (they are my responder).
    public var incomingPingAt: Date?
    /// A pending ping from me to this contact (they are my dependent).
    public var outgoingPingAt: Date?

    public init(
        id: UserID, name: String, phone: String, roles: ContactRoles, emergencyNote: String = "", avatarURL: String? = nil,
        addedAt: Date, notifyOnExpiry: Bool = true, lastCheckIn: Date? = nil, deadline: Date? = nil,
        checkInIntervalSeconds: Int? = nil, isNonResponsive: Bool = false, activeAlertID: UUID? = nil,
        alertActivatedAt: Date? = nil, incomingPingAt: Date? = nil, outgoingPingAt: Date? = nil, activeAlertKind: AlertKind? = nil
    ) {
        self.id = id
        self.name = name
        self.phone = phone
        self.roles = roles
        self.emergencyNote = emergencyNote
        self.avatarURL = avatarURL
        self.addedAt = addedAt
        self.notifyOnExpiry = notifyOnExpiry
        self.lastCheckIn = lastCheckIn
        self.deadline = deadline
        self.checkInIntervalSeconds = checkInIntervalSeconds
        self.isNonResponsive = isNonResponsive
        self.activeAlertID = activeAlertID
        self.alertActivatedAt = alertActivatedAt
        self.incomingPingAt = incomingPingAt
        self.outgoingPingAt = outgoingPingAt
        self.activeAlertKind = activeAlertID == nil ? nil : activeAlertKind
    }

    /// Whether the contact has raised an SOS that is still active (an escalated missed check-in
    /// is an incident too, but not an SOS).
    public var hasActiveSOS: Bool { activeAlertID != nil && activeAlertKind != .missedCheckIn }
}

/// Everything `get-contacts` returns.
public struct ContactList: Sendable, Hashable {
    public var contacts: [ContactSummary]
    /// Invitations I sent that are still pending.
    public var sentInvitations: [InvitationSummary]
    /// Pending invitations addressed to my (verified) phone number.
    public var receivedInvitations: [InvitationSummary]
    /// Requests from contacts to become my responder, waiting for my answer.
    public var receivedRoleRequests: [RoleRequest]
    /// My requests to become a contact's responder, waiting for theirs.
    public var sentRoleRequests: [RoleRequest]

    public init(
        contacts: [ContactSummary], sentInvitations: [InvitationSummary] = [], receivedInvitations: [InvitationSummary] = [],
        receivedRoleRequests: [RoleRequest] = [], sentRoleRequests: [RoleRequest] = []
    ) {
        self.contacts = contacts
        self.sentInvitations = sentInvitations
        self.receivedInvitations = receivedInvitations
        self.receivedRoleRequests = receivedRoleRequests
        self.sentRoleRequests = sentRoleRequests
    }
}

/// A phone invitation.
public struct InvitationSummary: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var inviterID: UserID
    public var inviterName: String
    public var inviteePhone: String
    /// The roles the invitee will hold for the inviter once they accept.
    public var roles: ContactRoles
    public var status: InvitationStatus
    public var sentAt: Date

    public init(
        id: UUID, inviterID: UserID, inviterName: String, inviteePhone: String, roles: ContactRoles,
        status: InvitationStatus, sentAt: Date
    ) {
        self.id = id
        self.inviterID = inviterID
        self.inviterName = inviterName
        self.inviteePhone = inviteePhone
        self.roles = roles
        self.status = status
        self.sentAt = sentAt
    }
}

/// What `lookup-qr-code` reveals about the owner of a code: enough to confirm the person
/// before adding them, nothing more.
public struct QRCodeOwner: Sendable, Hashable {
    public var userID: UserID
    public var name: String

    public init(userID: UserID, name: String) {
        self.userID = userID
        self.name = name
    }
}
