import Foundation
import LifeSignalDomain

/// One ledger row as an operator sees it.
public struct DeliveryRecord: Sendable, Hashable, Codable {
    public var id: UUID
    public var notificationID: UUID
    public var userID: UserID?
    public var channel: DeliveryChannel
    /// The address with its middle hidden (a device token is a credential; a phone number and
    /// an email address are personal data the ledger view does not need whole).
    public var address: String
    public var kind: String
    /// The message's title (what a lock screen or an email's subject shows).
    public var title: String
    public var status: DeliveryStatus
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var providerMessageID: String?
    public var lastError: String?
    public var createdAt: Date
    public var sentAt: Date?

    public init(
        id: UUID, notificationID: UUID, userID: UserID?, channel: DeliveryChannel, address: String, kind: String, title: String,
        status: DeliveryStatus, attempts: Int, nextAttemptAt: Date?, providerMessageID: String?, lastError: String?,
        createdAt: Date, sentAt: Date?
    ) {
        self.id = id
        self.notificationID = notificationID
        self.userID = userID
        self.channel = channel
        self.address = address
        self.kind = kind
        self.title = title
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.providerMessageID = providerMessageID
        self.lastError = lastError
        self.createdAt = createdAt
        self.sentAt = sentAt
    }
}

/// Where a ledger row stands.
public enum DeliveryStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case queued, sending, sent, delivered, failed
    /// A later step of a responder's fallback order, waiting its turn (``DeliveryFallback``).
    case held
    /// A step that was not needed: someone answered, or the incident ended, first.
    case cancelled
}
