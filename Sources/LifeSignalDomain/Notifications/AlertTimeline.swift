import Foundation

/// One step of an alert's delivery, for its timeline: who was tried, how, when, and what became
/// of it (issue 34: every step of the escalation is a ledger row, and shows here).
public struct AlertTimelineStep: Hashable, Codable, Sendable {
    public var at: Date
    public var recipient: String
    public var channel: DeliveryChannel
    /// The ledger's status: `queued`, `sending`, `sent`, `delivered`, `failed`, `held` (its turn
    /// has not come) or `cancelled` (someone answered first).
    public var status: String

    public init(at: Date, recipient: String, channel: DeliveryChannel, status: String) {
        self.at = at
        self.recipient = recipient
        self.channel = channel
        self.status = status
    }
}
