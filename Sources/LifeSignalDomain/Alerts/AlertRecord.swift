import Foundation

/// An SOS alert and who answered it.
public struct AlertRecord: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var userID: UserID
    public var status: AlertStatus
    public var activatedAt: Date
    public var resolvedAt: Date?
    /// Responders who acknowledged, in the order they did.
    public var responses: [AlertResponse]

    public init(id: UUID, userID: UserID, status: AlertStatus, activatedAt: Date, resolvedAt: Date? = nil, responses: [AlertResponse] = []) {
        self.id = id; self.userID = userID; self.status = status; self.activatedAt = activatedAt
        self.resolvedAt = resolvedAt; self.responses = responses
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
