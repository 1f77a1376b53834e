import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Decides, row by row inside one transaction, whether a notification may go out on a paid
/// channel (``DeliveryQueue``'s rules), counting what it admits (``SendCounter``).
///
/// It takes the budgets of the paid channels first (held to the transaction's end), then each
/// row's own counts, and adds what it admitted to the budgets at the end.
struct PaidChannelGate {
    let rules: DeliveryRules
    let now: Date
    /// Owner of each incident named by the items.
    private var owners: [UUID: UserID] = [:]
    /// (incident, recipient, channel) already told on a paid channel.
    private var told: Set<Told> = []
    /// Who caused each non-incident message, as a key that outlives the account.
    private var senders: [UserID: String] = [:]
    private var spent: [DeliveryChannel: Int] = [:]
    private var added: [DeliveryChannel: Int] = [:]
    /// Round reservations already made for a notification (all of its paid rows share one).
    private var rounds: [UUID: Bool] = [:]
    private(set) var roundsHeldFor: Set<UserID> = []

    private struct Told: Hashable {
        var incident: UUID
        var recipient: UserID
        var channel: String
    }

    static func prepare(
        _ items: [DeliveryQueue.Item], addresses: Addresses, channels: Set<DeliveryChannel>, now: Date, in connection: any SQLConnection
    ) async throws -> PaidChannelGate {
        var gate = PaidChannelGate(rules: DeliveryLedger.rulesInScope, now: now)
        let paid = channels.filter(\.isPaid)
        let reaching = items.filter { item in
            !item.freeChannelsOnly && paid.contains { !addresses.of(item.record.userID, on: $0).isEmpty }
        }
        guard !reaching.isEmpty else { return gate }
        gate.spent = try await SendCounter.lockBudgets(paid, now: now, in: connection)
        let incidents = Array(Set(reaching.compactMap(\.incident)))
        for start in stride(from: 0, to: incidents.count, by: 500) {
            let list = SQL.join(incidents[start..<min(start + 500, incidents.count)].map { "\($0)" }, separator: ", ")
            for row in try await connection.query("SELECT id, user_id FROM alerts WHERE id IN (\(list))") {
                gate.owners[try row.uuid("id")] = UserID(try row.uuid("user_id"))
            }
            for row in try await connection.query(
                "SELECT DISTINCT alert_id, user_id, channel FROM deliveries WHERE alert_id IN (\(list)) AND channel <> 'push' AND user_id IS NOT NULL")
            {
                gate.told.insert(Told(incident: try row.uuid("alert_id"), recipient: UserID(try row.uuid("user_id")), channel: try row.string("channel")))
            }
        }
        let causing = Set(reaching.filter { $0.incident == nil }.compactMap { item in item.record.contactID.flatMap { $0 == item.record.userID ? nil : $0 } })
        for list in Addresses.chunks(Array(causing)) {
            for row in try await connection.query(
                "SELECT u.id, u.phone, a.email FROM users u LEFT JOIN auth_users a ON a.id = u.id WHERE u.id IN (\(list))")
            {
                let id = UserID(try row.uuid("id"))
                gate.senders[id] = Self.identity(id, phone: row.optionalString("phone"), email: row.optionalString("email"))
            }
        }
        return gate
    }

    /// A person as the sending caps know them: by their verified phone, else their email,
    /// which a new account on the same phone or address inherits; by id only without either.
    static func identity(_ id: UserID, phone: String?, email: String?) -> String {
        if let phone, !phone.isEmpty { return "phone:" + phone }
        if let email, !email.isEmpty { return "email:" + email }
        return "user:\(id)"
    }

    /// Whether `item` may go to `address` on the paid `channel`; counts it when it may.
    mutating func admits(_ item: DeliveryQueue.Item, channel: DeliveryChannel, address: String, in connection: any SQLConnection) async throws -> Bool {
        let record = item.record
        if item.freeChannelsOnly { return false }
        if channel == .sms, !rules.smsAllowed(to: address) { return hold(channel, .country, record) }
        let budget = rules.caps.budget(of: channel) ?? .max
        if let incident = item.incident, record.type.isUrgent {
            if item.startsRound {
                guard try await roundAdmitted(item, incident: incident, in: connection) else { return hold(channel, .alertRounds, record) }
            } else if !told.contains(Told(incident: incident, recipient: record.userID, channel: channel.rawValue)) {
                // Only those told on this channel hear what follows on it.
                return false
            }
            // An incident message goes out whatever the budget; the operator hears of it.
            if (spent[channel] ?? 0) + (added[channel] ?? 0) >= budget { _ = hold(channel, .overBudget, record) }
            added[channel, default: 0] += 1
            return true
        }
        let caps = rules.caps
        if let sender = record.contactID.flatMap({ senders[$0] }),
            try await !SendCounter.reserve("sender:" + sender, limit: caps.perSenderPerDay, window: SendingCaps.day, now: now, in: connection)
        {
            return hold(channel, .sender, record)
        }
        guard
            try await SendCounter.reserve(
                "dest:\(channel.rawValue):\(address)", limit: caps.perDestinationPerDay, window: SendingCaps.day, now: now, in: connection)
        else { return hold(channel, .destination, record) }
        guard (spent[channel] ?? 0) + (added[channel] ?? 0) < budget else { return hold(channel, .budget, record) }
        added[channel, default: 0] += 1
        return true
    }

    /// One reservation per notification: its SMS and email are one round.
    private mutating func roundAdmitted(_ item: DeliveryQueue.Item, incident: UUID, in connection: any SQLConnection) async throws -> Bool {
        if let known = rounds[item.record.id] { return known }
        let owner = owners[incident] ?? item.record.userID
        let admitted = try await SendCounter.reserve(
            "rounds:\(item.record.userID):\(owner)", limit: rules.caps.alertRoundsPerHour, window: SendingCaps.hour, now: now, in: connection)
        rounds[item.record.id] = admitted
        if !admitted { roundsHeldFor.insert(owner) }
        return admitted
    }

    private func hold(_ channel: DeliveryChannel, _ reason: HeldMessage.Reason, _ record: NotificationRecord) -> Bool {
        rules.report(HeldMessage(channel: channel, reason: reason, kind: record.type.rawValue))
        return false
    }

    /// Adds what was admitted to the budgets.
    func finish(in connection: any SQLConnection) async throws {
        for (channel, count) in added { try await SendCounter.spend(count, of: channel, in: connection) }
    }
}
