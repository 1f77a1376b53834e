import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A notification about to be written: who gets it, what it says, whom it concerns.
public struct NotificationDraft: Sendable, Hashable {
    public var recipient: UserID
    public var type: NotificationType
    public var title: String
    public var body: String
    /// The other person it is about (the dependent who missed a check-in, the pinging responder).
    public var contactID: UserID?
    /// The incident (an `alerts` row) the message is part of: its paid-channel messages are
    /// bounded per hour and its all-clear follows the channels each recipient was told on
    /// (``DeliveryQueue``).
    public var incident: UUID?
    /// Push and in-app only: the text is a person's own words, which never leave by a paid
    /// channel (docs/security.md, "What leaves the server").
    public var freeChannelsOnly: Bool
    /// Whether the message is a round of telling about its ``incident`` (the alert, a repeat,
    /// a tier told for the first time), counted against ``SendingCaps/alertRoundsPerHour``,
    /// rather than something that follows one (an acknowledgement, the all-clear).
    public var startsRound: Bool

    public init(
        recipient: UserID, type: NotificationType, title: String, body: String, contactID: UserID? = nil, incident: UUID? = nil,
        freeChannelsOnly: Bool = false, startsRound: Bool? = nil
    ) {
        self.recipient = recipient
        self.type = type
        self.title = title
        self.body = body
        self.contactID = contactID
        self.incident = incident
        self.freeChannelsOnly = freeChannelsOnly
        self.startsRound = startsRound ?? DeliveryQueue.roundKinds.contains(type)
    }
}

extension NotificationRecord {
    init(row: SQLRow) throws {
        let typeName = try row.string("type")
        guard let type = NotificationType(rawValue: typeName) else { throw DatabaseError.decoding("unknown notification type \(typeName)") }
        self.init(
            id: try row.uuid("id"), userID: UserID(try row.uuid("user_id")), type: type, title: try row.string("title"),
            body: try row.string("body"), contactID: row.optionalUUID("contact_id").map { UserID($0) },
            isRead: try row.bool("is_read"), createdAt: try row.date("created_at"))
    }

    static let columns = "id, user_id, type, title, body, contact_id, is_read, created_at"
}

/// What a rule hands to delivery once its transaction has committed.
struct Outbox: Sendable {
    var notifications: [NotificationRecord] = []
    var changes: [ChangeEvent] = []
    /// Delivery-ledger rows queued with the notifications, sent at once after the commit.
    var deliveries: [UUID] = []

    mutating func append(_ other: Outbox) {
        notifications += other.notifications
        changes += other.changes
        deliveries += other.deliveries
    }

    mutating func change(_ table: String, _ kind: ChangeEvent.Kind, _ rowID: UUID, owner: UserID?, at: Date) {
        changes.append(ChangeEvent(table: table, kind: kind, rowID: rowID.uuidString.lowercased(), ownerID: owner, at: at))
    }
}
