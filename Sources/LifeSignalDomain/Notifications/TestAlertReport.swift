import Foundation

/// What a person's last test alert found: for each responder, what it was sent on, what became
/// of each, and whether they confirmed (by the link or by pressing 1 on a call). A responder
/// no channel outside the app could reach is flagged, not left out.
public struct TestAlertReport: Hashable, Codable, Sendable {
    public struct Attempt: Hashable, Codable, Sendable {
        public var channel: DeliveryChannel
        /// `queued`, `sending`, `sent`, `delivered` or `failed`, as the delivery ledger has it.
        public var status: String

        public init(channel: DeliveryChannel, status: String) {
            self.channel = channel
            self.status = status
        }
    }

    public struct Responder: Hashable, Codable, Sendable, Identifiable {
        public var id: UserID
        public var name: String
        public var attempts: [Attempt]
        public var confirmedAt: Date?
        /// `link` or `call`.
        public var confirmedBy: String?

        public init(id: UserID, name: String, attempts: [Attempt], confirmedAt: Date? = nil, confirmedBy: String? = nil) {
            self.id = id
            self.name = name
            self.attempts = attempts
            self.confirmedAt = confirmedAt
            self.confirmedBy = confirmedBy
        }

        /// Nothing outside the app could reach them: no channel was open to them, or every
        /// one failed. They would hear of an alert only if they opened the app.
        public var isUnreachable: Bool { attempts.allSatisfy { $0.status == "failed" } }
    }

    public var sentAt: Date
    public var responders: [Responder]

    public init(sentAt: Date, responders: [Responder]) {
        self.sentAt = sentAt
        self.responders = responders
    }
}
