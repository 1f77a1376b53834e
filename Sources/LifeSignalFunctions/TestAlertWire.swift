import Foundation
import LifeSignalDomain

/// `send-test-alert` and `get-test-alert` reply: the caller's latest test (none yet: no
/// `sentAt` and no responders).
public struct TestAlertResponse: Codable, Sendable, Hashable {
    public struct Attempt: Codable, Sendable, Hashable {
        public var channel: String
        public var status: String
    }

    public struct Responder: Codable, Sendable, Hashable {
        public var contactId: String
        public var name: String
        public var attempts: [Attempt]
        public var confirmedAt: String?
        public var confirmedBy: String?
        /// No channel outside the app reached them.
        public var unreachable: Bool
    }

    public var success: Bool
    public var sentAt: String?
    public var responders: [Responder]

    public init(_ report: TestAlertReport?) {
        success = true
        sentAt = report.map { Timestamp.format($0.sentAt) }
        responders = (report?.responders ?? []).map {
            Responder(
                contactId: $0.id.description, name: $0.name, attempts: $0.attempts.map { Attempt(channel: $0.channel.rawValue, status: $0.status) },
                confirmedAt: $0.confirmedAt.map(Timestamp.format), confirmedBy: $0.confirmedBy, unreachable: $0.isUnreachable)
        }
    }

    /// The report the reply describes, `nil` when there is none.
    public func report() throws(DomainError) -> TestAlertReport? {
        guard let sentAt else { return nil }
        guard let sent = Timestamp.parse(sentAt) else { throw .internal("a test alert time that does not parse") }
        var responders: [TestAlertReport.Responder] = []
        for responder in self.responders {
            guard let id = UUID(uuidString: responder.contactId) else { throw .internal("a responder id that is not a UUID") }
            responders.append(
                TestAlertReport.Responder(
                    id: UserID(id), name: responder.name,
                    attempts: responder.attempts.compactMap { attempt in
                        DeliveryChannel(rawValue: attempt.channel).map { TestAlertReport.Attempt(channel: $0, status: attempt.status) }
                    },
                    confirmedAt: responder.confirmedAt.flatMap(Timestamp.parse), confirmedBy: responder.confirmedBy))
        }
        return TestAlertReport(sentAt: sent, responders: responders)
    }
}
