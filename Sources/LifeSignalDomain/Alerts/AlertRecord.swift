import Foundation

/// An incident — an SOS alert or an escalated missed check-in — and who answered it.
public struct AlertRecord: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var userID: UserID
    public var status: AlertStatus
    public var activatedAt: Date
    public var resolvedAt: Date?
    /// Responders who acknowledged, in the order they did.
    public var responses: [AlertResponse]
    public var kind: AlertKind
    /// The deadline that was missed (a missed check-in).
    public var deadline: Date?
    /// The highest tier of responders told so far.
    public var tier: Int
    /// The first "I'm on it": when, and who.
    public var acknowledgedAt: Date?
    public var acknowledgedBy: UserID?
    public var resolution: AlertResolution?
    public var resolvedBy: UserID?
    /// Where the person was, if they shared it with an SOS.
    public var location: AlertLocation?

    public init(
        id: UUID, userID: UserID, status: AlertStatus, activatedAt: Date, resolvedAt: Date? = nil, responses: [AlertResponse] = [],
        kind: AlertKind = .sos, deadline: Date? = nil, tier: Int = 1, acknowledgedAt: Date? = nil, acknowledgedBy: UserID? = nil,
        resolution: AlertResolution? = nil, resolvedBy: UserID? = nil, location: AlertLocation? = nil
    ) {
        self.id = id
        self.userID = userID
        self.status = status
        self.activatedAt = activatedAt
        self.resolvedAt = resolvedAt
        self.responses = responses
        self.kind = kind
        self.deadline = deadline
        self.tier = tier
        self.acknowledgedAt = acknowledgedAt
        self.acknowledgedBy = acknowledgedBy
        self.resolution = resolution
        self.resolvedBy = resolvedBy
        self.location = location
    }
}

/// A responder's acknowledgement of an alert: the history keeps who and when.
public struct AlertResponse: Sendable, Hashable {
    public var responderID: UserID
    public var responderName: String
    public var respondedAt: Date

    public init(responderID: UserID, responderName: String, respondedAt: Date) {
        self.responderID = responderID
        self.responderName = responderName
        self.respondedAt = respondedAt
    }
}
