import Foundation

/// A request to become someone's responder, waiting for their consent: being a responder opens
/// the other person's check-ins and alerts, so it is never taken one-sidedly (docs/security.md,
/// "Functions that widen what someone sees").
public struct RoleRequest: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// Who asks to become the owner's responder.
    public var requesterID: UserID
    public var requesterName: String
    /// Whose check-ins and alerts the request would open: the one who accepts or declines.
    public var ownerID: UserID
    public var ownerName: String
    public var createdAt: Date

    public init(id: UUID, requesterID: UserID, requesterName: String, ownerID: UserID, ownerName: String, createdAt: Date) {
        self.id = id
        self.requesterID = requesterID
        self.requesterName = requesterName
        self.ownerID = ownerID
        self.ownerName = ownerName
        self.createdAt = createdAt
    }
}

/// What `update-contact-roles` did: the roles now in force, and the part that waits for the
/// other person's consent (becoming their responder), if any.
public struct RoleChangeOutcome: Sendable, Hashable {
    public var contact: ContactSummary
    public var pendingRequest: RoleRequest?

    public init(contact: ContactSummary, pendingRequest: RoleRequest? = nil) {
        self.contact = contact
        self.pendingRequest = pendingRequest
    }
}

/// The code the owner's screen shows: valid until `expiresAt` and for one link only, so a code
/// seen once (a photo, a screenshot) cannot link anyone later.
public struct QRCode: Sendable, Hashable {
    public var id: UUID
    public var expiresAt: Date

    public init(id: UUID, expiresAt: Date) {
        self.id = id
        self.expiresAt = expiresAt
    }
}
