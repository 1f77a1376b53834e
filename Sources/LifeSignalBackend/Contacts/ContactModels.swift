import Foundation
import LifeSignalDomain

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
    public var alertActivatedAt: Date?
    /// A pending ping from this contact to me (they are my responder).
    public var incomingPingAt: Date?
    /// A pending ping from me to this contact (they are my dependent).
    public var outgoingPingAt: Date?
}

/// Everything `get-contacts` returns.
public struct ContactList: Sendable, Hashable {
    public var contacts: [ContactSummary]
    /// Invitations I sent that are still pending.
    public var sentInvitations: [InvitationSummary]
    /// Pending invitations addressed to my (verified) phone number.
    public var receivedInvitations: [InvitationSummary]
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
}

/// What `lookup-qr-code` reveals about the owner of a code: enough to confirm the person
/// before adding them, nothing more.
public struct QRCodeOwner: Sendable, Hashable {
    public var userID: UserID
    public var name: String
}

/// A person's display name: first and last name, or the phone number before onboarding.
enum PersonName {
    static func display(_ row: SQLRow) -> String {
        let name = [row.optionalString("first_name"), row.optionalString("last_name")]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? (row.optionalString("phone") ?? "Someone") : name
    }
}
