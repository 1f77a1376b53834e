import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Writes the ledger rows of new notifications, inside the transaction that writes them.
///
/// A notification becomes one row per address of each channel its recipient's
/// ``DeliveryPreferences`` let carry it: every device token for push (when the person has
/// notifications enabled in the app), the verified phone for SMS, the confirmed email for
/// email. Channels this server has no sender for get no rows (``DeliveryLedger/channelsInScope``).
///
/// **Paid channels** (SMS, email) carry only what the rules in scope allow
/// (``DeliveryLedger/rulesInScope``, issue 31):
/// - text a person wrote never (``NotificationDraft/freeChannelsOnly``);
/// - SMS only to the allowed countries;
/// - an *incident message* (``NotificationDraft/incident``): a round (the alert, a missed
///   check-in, a repeat, a tier told) at most ``SendingCaps/alertRoundsPerHour`` times an hour
///   per recipient and person, whatever the budget; anything after it in the incident
///   (acknowledgements, the all-clear) only on the channels that recipient was told on;
/// - anything else within the sender's, the destination's and the server's daily counts.
enum DeliveryQueue {
    /// Notification kinds whose message to a responder links to the alert's page.
    static let alertKinds: Set<NotificationType> = [.alertActivatedReceived, .nonResponsiveDependent, .alertAcknowledged]
    /// Incident messages that are a round of telling: counted against the hourly rounds.
    static let roundKinds: Set<NotificationType> = [.alertActivatedReceived, .nonResponsiveDependent, .alertActivatedSent, .nonResponsiveSelf]

    /// A stored notification with what its rule said about reaching the recipient.
    struct Item: Sendable {
        var record: NotificationRecord
        var incident: UUID?
        var freeChannelsOnly: Bool
        var startsRound = false
    }

    /// The rows queued, and the people whose responders stopped hearing rounds on paid channels.
    struct Queued: Sendable {
        var ids: [UUID] = []
        var roundsHeldFor: Set<UserID> = []
    }

    /// Queues `items` and returns the new rows' ids.
    static func enqueue(_ items: [Item], now: Date, in connection: any SQLConnection) async throws -> Queued {
        let channels = DeliveryLedger.channelsInScope
        guard !items.isEmpty, !channels.isEmpty else { return Queued() }
        let addresses = try await Addresses.load(for: Array(Set(items.map(\.record.userID))), channels: channels, in: connection)
        var gate = try await PaidChannelGate.prepare(items, addresses: addresses, channels: channels, now: now, in: connection)
        var rows: [SQL] = []
        var queued = Queued()
        var fallback = DeliveryFallback.Steps()
        for item in items {
            let record = item.record
            let choices = addresses.preferences[record.userID] ?? .standard
            var data = ["type": record.type.rawValue, "notificationId": record.id.uuidString.lowercased()]
            if let contact = record.contactID { data["contactId"] = contact.description }
            // Every incident message names its alert; a responder's message links to its page.
            let alertID = item.incident
            if let alertID { data["alertId"] = alertID.uuidString.lowercased() }
            let json = String(decoding: try JSONEncoder.sorted.encode(data), as: UTF8.self)
            let chosen = DeliveryChannel.allCases.filter { channel in
                channels.contains(channel) && choices[channel].carries(record.type) && (channel != .voice || record.type.isCalled)
                    && !addresses.of(record.userID, on: channel).isEmpty
            }
            // A responder's round with a fallback order: one channel now, the rest held, each
            // due after its share of the tier's delay (``DeliveryFallback``).
            let ordered = try await fallback.plan(item, chosen: chosen, order: choices.fallback, now: now, in: connection)
            var step = 0
            for channel in ordered.channels {
                var wrote = false
                for address in addresses.of(record.userID, on: channel) {
                    if channel.isPaid, try await !gate.admits(item, channel: channel, address: address, in: connection) { continue }
                    let id = UUID()
                    let due = now.addingTimeInterval(ordered.step * Double(step))
                    if step == 0 { queued.ids.append(id) }
                    rows.append(
                        """
                        (\(id), \(record.id), \(record.userID), \(channel.rawValue), \(address), \(record.type.rawValue), \
                        \(record.title), \(record.body), \(json), \(alertID), \(step == 0 ? "queued" : "held"), 0, \(due), \(now), \(now))
                        """)
                    wrote = true
                }
                if wrote, ordered.step > 0 { step += 1 }
            }
        }
        try await gate.finish(in: connection)
        queued.roundsHeldFor = gate.roundsHeldFor
        // Chunks keep the parameter count far below either engine's limit (15 a row).
        for start in stride(from: 0, to: rows.count, by: 200) {
            try await connection.query(
                """
                INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, data, alert_id, \
                status, attempts, next_attempt_at, created_at, updated_at) VALUES
                """ + SQL.join(Array(rows[start..<min(start + 200, rows.count)]), separator: ", "))
        }
        return queued
    }
}

/// Where each recipient can be reached, and what they chose to receive.
struct Addresses {
    var preferences: [UserID: DeliveryPreferences] = [:]
    var tokens: [UserID: [String]] = [:]
    var phones: [UserID: String] = [:]
    var callPhones: [UserID: String] = [:]
    var emails: [UserID: String] = [:]

    func of(_ user: UserID, on channel: DeliveryChannel) -> [String] {
        switch channel {
        case .push: tokens[user] ?? []
        case .sms: phones[user].map { [$0] } ?? []
        case .email: emails[user].map { [$0] } ?? []
        // A call goes to the verified number even when texts to it are stopped: STOP is SMS's.
        case .voice: callPhones[user].map { [$0] } ?? []
        }
    }

    /// Comma-separated bound ids, 500 at a time.
    static func chunks(_ users: [UserID]) -> [SQL] {
        stride(from: 0, to: users.count, by: 500).map { start in
            SQL.join(users[start..<min(start + 500, users.count)].map { "\($0)" }, separator: ", ")
        }
    }

    static func load(for users: [UserID], channels: Set<DeliveryChannel>, in connection: any SQLConnection) async throws -> Addresses {
        var result = Addresses()
        for list in chunks(users) {
            for row in try await connection.query(
                "SELECT user_id, push, sms, email, voice, fallback FROM delivery_preferences WHERE user_id IN (\(list))")
            {
                result.preferences[UserID(try row.uuid("user_id"))] = DeliveryPreferences(
                    push: ChannelChoice(rawValue: try row.string("push")) ?? .all,
                    sms: ChannelChoice(rawValue: try row.string("sms")) ?? .urgent,
                    email: ChannelChoice(rawValue: try row.string("email")) ?? .urgent,
                    voice: ChannelChoice(rawValue: try row.string("voice")) ?? .off,
                    fallback: DeliveryFallback.order(row.optionalString("fallback")))
            }
            if channels.contains(.push) {
                // The app's own switch still governs pushes, as it did before the ledger.
                for row in try await connection.query(
                    """
                    SELECT t.user_id, t.token FROM push_tokens t JOIN users u ON u.id = t.user_id
                    WHERE u.notifications_enabled = \(true) AND t.user_id IN (\(list)) ORDER BY t.created_at
                    """)
                {
                    result.tokens[UserID(try row.uuid("user_id")), default: []].append(try row.string("token"))
                }
            }
            if channels.contains(.sms) {
                // An account made by email keeps an empty phone until one is proven by a code.
                for row in try await connection.query(
                    """
                    SELECT id, phone FROM users WHERE phone IS NOT NULL AND phone <> '' AND id IN (\(list))
                    AND phone NOT IN (SELECT phone FROM lifesignal_sms_unreachable)
                    """)
                {
                    result.phones[UserID(try row.uuid("id"))] = try row.string("phone")
                }
            }
            if channels.contains(.voice) {
                for row in try await connection.query("SELECT id, phone FROM users WHERE phone IS NOT NULL AND phone <> '' AND id IN (\(list))") {
                    result.callPhones[UserID(try row.uuid("id"))] = try row.string("phone")
                }
            }
            if channels.contains(.email) {
                for row in try await connection.query(
                    """
                    SELECT id, email FROM auth_users WHERE email IS NOT NULL AND email <> '' AND email_verified_at IS NOT NULL AND id IN (\(list))
                    """)
                {
                    result.emails[UserID(try row.uuid("id"))] = try row.string("email")
                }
            }
        }
        return result
    }
}
